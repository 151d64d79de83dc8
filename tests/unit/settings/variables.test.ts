import { environmentNames, secretId, VARIABLE_NAME } from "../../../src/settings/variables";
import { defaultSettings } from "../../../src/settings/user-settings";

describe("secret ids", () => {
	it("are lowercase letters, digits and dashes, as Obsidian's secret storage requires", () => {
		expect(secretId("dev", "token")).toBe("runnable-blocks-dev-token");
		expect(secretId("Staging EU", "API_KEY")).toBe("runnable-blocks-staging-eu-api-key");
		expect(secretId("dev", "a..b__")).toBe("runnable-blocks-dev-a-b");
		for (const id of [secretId("Ünïcode", "x.y"), secretId("p r o d", "--k--")]) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
	});
});

describe("variable names", () => {
	it("accept what a {{name}} reference can name and refuse the rest", () => {
		for (const ok of ["token", "base_url", "_x", "api.v2", "a-b"]) expect(VARIABLE_NAME.test(ok)).toBe(true);
		for (const bad of ["", "1st", "has space", "{{x}}", "é"]) expect(VARIABLE_NAME.test(bad)).toBe(false);
	});
});

describe("environment names", () => {
	it("come in user.toml order", () => {
		const s = defaultSettings();
		s.environments = { prod: {}, dev: { a: { value: "1" } } };
		expect(environmentNames(s)).toEqual(["prod", "dev"]);
	});
});
