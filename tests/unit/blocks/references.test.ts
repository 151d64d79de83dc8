import {
	classifyReference,
	evaluateBuiltin,
	findReferences,
	isHttpToken,
	parseAliasPath,
	resolveTemplate,
	type Entropy,
	type ReferenceSources,
} from "../../../src/blocks";

const fixed: Entropy = {
	now: () => new Date("2026-01-02T03:04:05.000Z"),
	random: () => 0.5,
	uuid: () => "00000000-0000-4000-8000-000000000000",
};

function sources(env: Record<string, string>, aliases: Record<string, string> = {}): ReferenceSources {
	return {
		builtin: (inner) => evaluateBuiltin(inner, fixed),
		alias: (path) => {
			if (!(path.alias in aliases)) return undefined;
			const v = aliases[path.alias];
			return v === "NOT_RUN"
				? { ok: false, message: `Unresolved reference: block "${path.alias}" has not run`, notRun: path.alias }
				: { ok: true, value: `${v}:${path.part}.${path.section}.${path.selector}` };
		},
		variable: (name) => env[name],
	};
}

describe("finding references", () => {
	it("finds each reference with its offsets and kind", () => {
		const text = "GET {{base_url}}/a?id={{login.response.body.$.id}}&u={{uuid}}";
		const refs = findReferences(text);
		expect(refs.map((r) => [r.text, r.kind])).toEqual([
			["{{base_url}}", "variable"],
			["{{login.response.body.$.id}}", "alias"],
			["{{uuid}}", "builtin"],
		]);
		for (const r of refs) expect(text.slice(r.start, r.end)).toBe(r.text);
	});

	it.each([
		["\\{{literal}}", 0],
		["{{ not closed", 0],
		["{{a\n}}", 0],
		["{{}}", 1],
		["x {{a}} \\{{b}} {{c}}", 2],
	])("in %j finds %i", (text, n) => {
		expect(findReferences(text)).toHaveLength(n);
	});

	it.each([
		["uuid", "builtin"],
		["timestamp", "builtin"],
		["isoTimestamp", "builtin"],
		["randomInt", "builtin"],
		["randomInt 1 10", "builtin"],
		["$guid", "builtin"],
		["$uuid", "builtin"],
		["$timestamp", "builtin"],
		["$randomInt 1 5", "builtin"],
		["$datetime iso8601", "builtin"],
		["$processEnv HOME", "builtin"],
		["$env HOME", "invalid"],
		["uuid extra", "invalid"],
		["login.response.body.*", "alias"],
		["login.response.body.$.data[0].id", "alias"],
		["login.response.headers.Content-Type", "alias"],
		["login.response.status", "alias"],
		["login.request.body.*", "alias"],
		["login.request.headers.Authorization", "alias"],
		["login.response.body.token", "invalid"],
		["login.response.status.x", "invalid"],
		["base_url", "variable"],
		["api.v2", "variable"],
		["two words", "invalid"],
		["9lives", "invalid"],
	])("classifies %j as %s", (inner, kind) => {
		expect(classifyReference(inner)).toBe(kind);
	});

	it("splits alias paths", () => {
		expect(parseAliasPath("a-1.response.headers.X-Id")).toEqual({ alias: "a-1", part: "response", section: "headers", selector: "X-Id" });
		expect(parseAliasPath("a.response.body.$.x.y")).toEqual({ alias: "a", part: "response", section: "body", selector: "$.x.y" });
		expect(parseAliasPath("a.request.status")).toBeNull();
	});
});

describe("resolveTemplate", () => {
	it("resolves variables, built-ins and alias paths, reporting what it used", () => {
		const r = resolveTemplate("{{base_url}}/b/{{created.response.body.$.id}}?t={{timestamp}}&r={{randomInt 10 20}}", sources({ base_url: "http://h", unused: "x" }, { created: "C" }));
		expect(r.errors).toEqual([]);
		expect(r.value).toBe("http://h/b/C:response.body.$.id?t=1767323045&r=15");
		expect([...r.variablesUsed]).toEqual([["base_url", "http://h"]]);
		expect([...r.aliasesUsed]).toEqual(["created"]);
	});

	it("turns \\{{ into a literal {{ and resolves nothing there", () => {
		expect(resolveTemplate("a \\{{base_url}} b", sources({ base_url: "X" })).value).toBe("a {{base_url}} b");
	});

	it("turns httpyac's \\{\\{name\\}\\} into a literal {{name}}, beside references it resolves", () => {
		const r = resolveTemplate('{"template": "My \\{\\{someVerb\\}\\} {{v}}", "half": "\\{\\{open"}', sources({ someVerb: "X", v: "V" }));
		expect(r.value).toBe('{"template": "My {{someVerb}} V", "half": "\\{\\{open"}');
		expect([...r.variablesUsed.keys()]).toEqual(["v"]);
		expect(findReferences("My \\{\\{someVerb\\}\\}")).toEqual([]);
		// In a variable's value too, whether or not the value holds a reference.
		expect(resolveTemplate("{{a}} {{b}}", sources({ a: "\\{\\{x\\}\\}", b: "\\{\\{y\\}\\} {{a}}" })).value).toBe("{{x}} {{y}} {{x}}");
	});

	it("names an unresolved variable", () => {
		const r = resolveTemplate("{{missing}}", sources({}));
		expect(r.errors).toEqual([{ reference: "{{missing}}", message: expect.stringContaining('no variable "missing"') as unknown, notRunAlias: undefined }]);
	});

	it("offers to run an alias that has not run", () => {
		const r = resolveTemplate("{{login.response.body.$.token}}", sources({}, { login: "NOT_RUN" }));
		expect(r.errors[0].notRunAlias).toBe("login");
	});

	it("reports an alias that is not above the block", () => {
		const r = resolveTemplate("{{ghost.response.status}}", sources({}));
		expect(r.errors[0].message).toContain('no block above has alias "ghost"');
	});

	it("falls back to a dotted environment variable that looks like an alias path", () => {
		const r = resolveTemplate("{{x.response.status}}", sources({ "x.response.status": "V" }));
		expect(r.value).toBe("V");
	});

	it("reports invalid references and unknown built-ins", () => {
		expect(resolveTemplate("{{two words}}", sources({})).errors).toHaveLength(1);
		expect(resolveTemplate("{{$processEnv X}}", sources({})).errors).toHaveLength(1);
		expect(resolveTemplate("{{randomInt 5 1}}", sources({})).errors[0].message).toContain("MIN < MAX");
	});
});

describe("environment values that hold references", () => {
	it("are resolved, one level per hop, and every variable read is reported", () => {
		const env = { base_url: "{{scheme}}://{{host}}/v1", scheme: "https", host: "{{name}}.test", name: "api" };
		const r = resolveTemplate("GET {{base_url}}/x", sources(env));
		expect(r.errors).toEqual([]);
		expect(r.value).toBe("GET https://api.test/v1/x");
		expect([...r.variablesUsed.keys()].sort()).toEqual(["base_url", "host", "name", "scheme"]);
	});

	it("may use built-ins and alias results, and keep an escaped \\{{ literal", () => {
		const r = resolveTemplate("{{auth}} {{raw}}", sources({ auth: "Bearer {{login.response.body.$.token}} {{$randomInt 0 2}}", raw: "\\{{x}}" }, { login: "L" }));
		expect(r.value).toBe("Bearer L:response.body.$.token 1 {{x}}");
		expect([...r.aliasesUsed]).toEqual(["login"]);
	});

	it.each([
		[{ a: "{{a}}" }, "a → a"],
		[{ a: "x{{b}}", b: "{{c}}", c: "{{a}}" }, "a → b → c → a"],
	])("are an error naming the chain when they form a cycle: %j", (env, chain) => {
		const r = resolveTemplate("GET {{a}}", sources(env));
		expect(r.errors).toHaveLength(1);
		expect(r.errors[0].message).toMatch(/^Unresolved reference \{\{a\}\}: /);
		expect(r.errors[0].message).toContain(`variables refer to each other in a cycle: ${chain}`);
	});

	it("name the missing variable of a value, and never send the literal", () => {
		const r = resolveTemplate("{{base_url}}", sources({ base_url: "http://{{host}}" }));
		expect(r.errors[0].message).toBe('Unresolved reference {{base_url}}: its value needs {{host}}: no variable "host" in the active environment');
	});

	it("pass on that an alias in a value has not run", () => {
		const r = resolveTemplate("{{token}}", sources({ token: "{{login.response.body.$.t}}" }, { login: "NOT_RUN" }));
		expect(r.errors[0]).toMatchObject({ notRunAlias: "login" });
	});
});

describe("built-ins", () => {
	it.each([
		["uuid", "00000000-0000-4000-8000-000000000000"],
		["$guid", "00000000-0000-4000-8000-000000000000"],
		["timestamp", "1767323045"],
		["$timestamp -1 d", "1767236645"],
		["isoTimestamp", "2026-01-02T03:04:05.000Z"],
		["$datetime iso8601", "2026-01-02T03:04:05.000Z"],
		["$datetime rfc1123 1 h", "Fri, 02 Jan 2026 04:04:05 GMT"],
		["randomInt", "500"],
		["$randomInt 0 2", "1"],
	])("%s → %s", (inner, value) => {
		expect(evaluateBuiltin(inner, fixed)).toEqual({ ok: true, value });
	});

	it("rejects bad arguments and ignores non-built-ins", () => {
		expect(evaluateBuiltin("$timestamp 1 fortnight", fixed)).toMatchObject({ ok: false });
		expect(evaluateBuiltin("$datetime custom", fixed)).toMatchObject({ ok: false });
		expect(evaluateBuiltin("uuid 1", fixed)).toMatchObject({ ok: false });
		expect(evaluateBuiltin("base_url", fixed)).toBeUndefined();
	});

	it("generates real random UUIDs by default", () => {
		const a = evaluateBuiltin("uuid");
		const b = evaluateBuiltin("uuid");
		expect(a).toMatchObject({ ok: true, value: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown });
		expect(a).not.toEqual(b);
	});
});

describe("Invalid HTTP token rule", () => {
	it.each([["Content-Type", true], ["X_a.b~c!", true], ["has space", false], ["", false], ["a:b", false], ["naïve", false], ["tab\there", false]])(
		"%j → %s",
		(name, ok) => {
			expect(isHttpToken(name)).toBe(ok);
		},
	);
});

describe("a stream's messages by reference", () => {
	it.each(["feed.response.messages.count", "feed.response.messages.0", "feed.response.messages.-1.data", "feed.response.messages.-1.data.$.a[0]", "feed.response.messages.2.event", "feed.response.messages.2.id"])("%s is an alias reference", (inner) => {
		expect(classifyReference(inner)).toBe("alias");
		expect(parseAliasPath(inner)).toEqual({ alias: "feed", part: "response", section: "messages", selector: inner.slice("feed.response.messages.".length) });
	});

	it.each(["feed.response.messages", "feed.response.messages.last", "feed.request.messages.0", "feed.response.messages.0.data.x"])("%s is invalid", (inner) => {
		expect(classifyReference(inner)).toBe("invalid");
		expect(parseAliasPath(inner)).toBeNull();
	});
});
