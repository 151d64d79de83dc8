import { classifyReference, findReferences, linkNamesPath, noteLinkSpans, parseNote, parseNoteAliasPath, parseNoteReference, resolveTemplate, type ReferenceSources } from "../../../src/blocks";

const none: ReferenceSources = { builtin: () => undefined, alias: () => undefined, variable: () => undefined };

describe("note references: the form", () => {
	it.each([
		["[[Auth]]#login.response.body.$.token", "Auth", { alias: "login", part: "response", section: "body", selector: "$.token" }],
		["[[APIs/Auth.md]]#login.response.status", "APIs/Auth.md", { alias: "login", part: "response", section: "status", selector: "" }],
		["[[My Auth]]#login.response.headers.X-Token", "My Auth", { alias: "login", part: "response", section: "headers", selector: "X-Token" }],
		["[[ Auth ]]#login.request.body.*", "Auth", { alias: "login", part: "request", section: "body", selector: "*" }],
	])("reads %s", (inner, link, path) => {
		expect(parseNoteAliasPath(inner)).toEqual({ link, path });
		expect(classifyReference(inner)).toBe("note");
	});

	it.each([
		["[[Auth", 'the link has no closing "]]"'],
		["[[]]#login.response.status", "the link names no note"],
		["[[Auth|the auth note]]#login.response.status", "a link in a reference has no display text: write [[Auth]]"],
		["[[Auth#login]].response.status", "the block's alias goes after the link: write [[Auth]]#login…"],
		["[[Auth]]", 'name a block of [[Auth]] after "#"'],
		["[[Auth]]login.response.status", 'name a block of [[Auth]] after "#"'],
		["[[Auth]]#", 'name a block of [[Auth]] after "#"'],
	])("refuses %s, saying why", (inner, why) => {
		const parsed = parseNoteReference(inner);
		expect(parsed.ok).toBe(false);
		expect(parsed.ok ? "" : parsed.why).toContain(why);
		expect(classifyReference(inner)).toBe("invalid");
	});

	it("refuses an alias path that in-note references would refuse too", () => {
		expect(classifyReference("[[Auth]]#login.response.body.token")).toBe("invalid");
		const r = resolveTemplate("{{[[Auth]]#login.response.body.token}}", none);
		expect(r.errors[0].message).toBe('Unresolved reference {{[[Auth]]#login.response.body.token}}: "login.response.body.token" is not an alias path (alias.response.body.$.x, alias.response.status…)');
	});

	it("finds a note reference among others, with its offsets", () => {
		const text = "Authorization: Bearer {{[[Auth]]#login.response.body.$.token}} {{x}}";
		expect(findReferences(text).map((r) => [r.kind, text.slice(r.start, r.end)])).toEqual([
			["note", "{{[[Auth]]#login.response.body.$.token}}"],
			["variable", "{{x}}"],
		]);
	});
});

describe("note references: resolving", () => {
	it("asks the note source with the link and the alias path", () => {
		const asked: string[] = [];
		const r = resolveTemplate("Bearer {{[[Auth]]#login.response.body.$.token}}", {
			...none,
			note: (link, path) => {
				asked.push(`${link}|${path.alias}|${path.selector}`);
				return { ok: true, value: "t0k" };
			},
		});
		expect(r).toMatchObject({ value: "Bearer t0k", errors: [] });
		expect(asked).toEqual(["Auth|login|$.token"]);
	});

	it("is unresolved, saying so, where no other note can be read", () => {
		const r = resolveTemplate("{{[[Auth]]#login.response.status}}", none);
		expect(r.errors[0].message).toBe("Unresolved reference {{[[Auth]]#login.response.status}}: references to other notes cannot be read here");
	});

	it("passes the source's failure through", () => {
		const r = resolveTemplate("{{[[Auth]]#login.response.status}}", { ...none, note: () => ({ ok: false, message: "no note [[Auth]] in the vault" }) });
		expect(r.errors[0].message).toBe("no note [[Auth]] in the vault");
	});
});

describe("note references: problems in the note", () => {
	it("a malformed one is an error on its line and column, and the block does not run", () => {
		const note = "# Orders\n\n```http\nGET http://x/orders\nAuthorization: {{[[Auth|a]]#login.response.status}}\n```\n";
		const [block] = parseNote(note);
		expect(block.runnable).toBe(false);
		expect(block.problems).toEqual([
			{ code: "invalid_reference", severity: "error", line: 4, column: 15, message: "Invalid reference {{[[Auth|a]]#login.response.status}}: a link in a reference has no display text: write [[Auth]]" },
		]);
	});

	it("a well-formed one is no problem", () => {
		const [block] = parseNote("```http\nGET http://x/{{[[Auth]]#login.response.body.$.id}}\n```\n");
		expect(block.problems).toEqual([]);
		expect(block.runnable).toBe(true);
	});
});

describe("note references: what a rename rewrites", () => {
	it("finds the link of every note reference, as note offsets", () => {
		const text = "```http\nGET /a?t={{[[Auth]]#login.response.status}}&u={{ [[APIs/Auth.md]]#x.response.status }}&v={{x}}\n```\n";
		const spans = noteLinkSpans(parseNote(text));
		expect(spans.map((s) => [s.link, text.slice(s.from, s.to)])).toEqual([
			["Auth", "Auth"],
			["APIs/Auth.md", "APIs/Auth.md"],
		]);
	});

	it.each([
		["Auth", "Orders.md", "APIs/Auth.md", true],
		["auth", "Orders.md", "APIs/Auth.md", true],
		["APIs/Auth", "Orders.md", "APIs/Auth.md", true],
		["Auth.md", "Orders.md", "Auth.md", true],
		["../Auth", "APIs/x/Orders.md", "APIs/Auth.md", true],
		["Auth", "Orders.md", "APIs/Author.md", false],
		["Other/Auth", "Orders.md", "APIs/Auth.md", false],
		// Relative links name only what is relative to the note's folder, never a vault path or a path ending.
		["../Auth", "Team/Sub/Pay.md", "Auth.md", false],
		["../Auth", "Team/Sub/Pay.md", "Team/Auth.md", true],
		["./Auth", "Team/Pay.md", "Other/Team/Auth.md", false],
	] as Array<[string, string, string, boolean]>)("[[%s]] in %s names %s: %s", (link, from, path, expected) => {
		expect(linkNamesPath(link, from, path)).toBe(expected);
	});
});
