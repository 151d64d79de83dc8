import { defineKind } from "../../../src/blocks/kind";

describe("defineKind", () => {
	it("gives back the kind it declares, its parse and tokens untouched", () => {
		const tokens = [{ key: "mode", form: "value", values: ["a", "b"], expects: "use a or b", read: (t: string) => (t === "a" || t === "b" ? t : undefined) }] as const;
		const kind = { language: "demo", tokens, parse: (content: string) => ({ model: content.length, problems: [], alias: null }) };
		const defined = defineKind(kind);
		expect(defined).toBe(kind);
		expect(defined.parse("abc")).toEqual({ model: 3, problems: [], alias: null });
		expect(defined.tokens[0].read("b")).toBe("b");
	});
});
