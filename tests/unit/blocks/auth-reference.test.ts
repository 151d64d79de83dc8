import { classifyReference, parseAuthReference, resolveTemplate } from "../../../src/blocks";

describe("auth references", () => {
	it.each([
		['$auth.token("keycloak")', { name: "keycloak", which: "token" }],
		["$auth.idToken('kc')", { name: "kc", which: "idToken" }],
		['$auth.token( "my auth" )', { name: "my auth", which: "token" }],
	])("reads %s", (inner, expected) => {
		expect(parseAuthReference(inner)).toEqual(expected);
		expect(classifyReference(inner)).toBe("builtin");
	});

	it.each(['$auth.token("")', "$auth.token(kc)", '$auth.accessToken("kc")', '$auth.token("kc"'])("refuses %s, saying the form", (inner) => {
		expect(parseAuthReference(inner)).toBeNull();
		expect(classifyReference(inner)).toBe("invalid");
		const r = resolveTemplate(`{{${inner}}}`, { builtin: () => undefined, alias: () => undefined, variable: () => undefined });
		expect(r.errors[0].message).toBe(`Unresolved reference {{${inner}}}: write {{$auth.token("name")}} or {{$auth.idToken("name")}}`);
	});
});
