import { readFileSync } from "node:fs";
import { join } from "node:path";
import { environmentVariables, formatProblem, parseSettings } from "../../../src/settings/user-settings";

const fixture = (name: string) => readFileSync(join(__dirname, "../../fixtures/settings", name), "utf8");

describe("user.toml settings", () => {
	it("reads every section of a commented file", () => {
		const r = parseSettings(fixture("commented.toml"));
		if (!r.ok) throw new Error("expected ok");
		expect(r.errors).toEqual([]);
		expect(r.settings.general).toEqual({ environment: "dev", timeout: 30000, transport: "auto", keymapPreset: "obsidian", persistCookies: false, parallel: 4 });
		expect(r.settings.keymap).toEqual({ "block.run": "Mod+Enter", "chat.toggle": "Mod+B" });
		expect(r.settings.environments.dev).toEqual({ base_url: { value: "http://127.0.0.1:8080" }, token: { secret: "dev-token" }, port: { value: "8080" } });
		expect(r.settings.connections.app).toEqual({ type: "sqlite", path: "data/app.sqlite", readonly: true });
	});

	it("warns about unknown keys and sections, with their positions", () => {
		const r = parseSettings(fixture("commented.toml"));
		if (!r.ok) throw new Error("expected ok");
		expect(r.warnings.map(formatProblem)).toEqual([
			'user.toml:28:1: extras: unknown section "extras" is kept but ignored',
			'user.toml:8:14: general.theme_hint: unknown key "theme_hint" is kept but ignored',
		]);
	});

	it("gives defaults for an empty file", () => {
		const r = parseSettings("");
		if (!r.ok) throw new Error("expected ok");
		const { chat, vcs, ...rest } = r.settings;
		expect(vcs).toEqual({ commitTemplate: "", autoSyncMinutes: 0 });
		expect(rest).toEqual({ general: { environment: "", timeout: 30000, transport: "auto", keymapPreset: "obsidian", persistCookies: false, parallel: 4 }, keymap: {}, environments: {}, connections: {}, auth: {}, tls: {} });
		expect(chat).toMatchObject({ baseUrl: "http://127.0.0.1:11434/v1", model: "", apiKeySecret: null });
	});

	it("reports every invalid value with file, line, column and key, keeping defaults", () => {
		const r = parseSettings(fixture("invalid-values.toml"), "vault/config/plugins/runnable-blocks/user.toml");
		if (!r.ok) throw new Error("expected ok");
		expect(r.errors.map((e) => `${e.line}:${e.column} ${e.key}`)).toEqual([
			"3:11 general.timeout",
			"4:13 general.transport",
			'7:15 keymap."block.run"',
			"10:12 environments.dev.base_url",
			"2:15 general.environment",
			"13:8 connections.app.type",
			"14:8 connections.app.path",
			"15:12 connections.app.readonly",
		]);
		expect(formatProblem(r.errors[0])).toBe('vault/config/plugins/runnable-blocks/user.toml:3:11: general.timeout: must be a positive integer number of milliseconds (got "abc")');
		expect(r.errors[4].message).toBe('environment "prod" is not defined (defined: dev)');
		expect(r.settings.general).toEqual({ environment: "prod", timeout: 30000, transport: "auto", keymapPreset: "obsidian", persistCookies: false, parallel: 4 });
		expect(r.settings.connections).toEqual({});
	});

	it.each([
		["persist_cookies = true", true, []],
		["persist_cookies = false", false, []],
		['persist_cookies = "yes"', false, ['user.toml:2:19: general.persist_cookies: must be true or false (got "yes")']],
	])("reads [general] %s (an invalid value keeps the default, off)", (line, persist, errors) => {
		const r = parseSettings(`[general]\n${line}\n`);
		if (!r.ok) throw new Error("expected ok");
		expect(r.settings.general.persistCookies).toBe(persist);
		expect(r.errors.map(formatProblem)).toEqual(errors);
	});

	it.each([
		["parallel = 1", 1, []],
		["parallel = 8", 8, []],
		["parallel = 0", 4, ["user.toml:2:12: general.parallel: must be a whole number from 1 (one block after another) to 64 (got 0)"]],
		["parallel = 2.5", 4, ["user.toml:2:12: general.parallel: must be a whole number from 1 (one block after another) to 64 (got 2.5)"]],
		['parallel = "4"', 4, ['user.toml:2:12: general.parallel: must be a whole number from 1 (one block after another) to 64 (got "4")']],
		["parallel = 65", 4, ["user.toml:2:12: general.parallel: must be a whole number from 1 (one block after another) to 64 (got 65)"]],
	])("reads [general] %s as %s blocks at once (an invalid value keeps the default, 4)", (line, parallel, errors) => {
		const r = parseSettings(`[general]\n${line}\n`);
		if (!r.ok) throw new Error("expected ok");
		expect(r.settings.general.parallel).toBe(parallel);
		expect(r.errors.map(formatProblem)).toEqual(errors);
	});

	it.each([
		['keymap_preset = "notebook"', "notebook", []],
		['keymap_preset = "obsidian"', "obsidian", []],
		['keymap_preset = "vscode"', "obsidian", ['user.toml:2:17: general.keymap_preset: must be one of obsidian, notebook (got "vscode")']],
		["keymap_preset = true", "obsidian", ["user.toml:2:17: general.keymap_preset: must be one of obsidian, notebook (got true)"]],
	])("reads [general] %s as the %s preset (an invalid value keeps the default)", (line, preset, errors) => {
		const r = parseSettings(`[general]\n${line}\n`);
		if (!r.ok) throw new Error("expected ok");
		expect(r.settings.general.keymapPreset).toBe(preset);
		expect(r.errors.map(formatProblem)).toEqual(errors);
	});

	it("fails a syntax error as a whole, with line and column", () => {
		const r = parseSettings(fixture("syntax-error.toml"));
		expect(r.ok).toBe(false);
		expect(r.errors).toHaveLength(1);
		expect(r.errors[0]).toMatchObject({ line: 4, key: "" });
		expect(r.errors[0].column).toBeGreaterThan(1);
		expect(formatProblem(r.errors[0])).toMatch(/^user\.toml:4:\d+: /);
	});

	it.each([
		["[general]\ntimeout = 0", "general.timeout"],
		["[general]\ntimeout = 1.5", "general.timeout"],
		["[general]\nenvironment = 3", "general.environment"],
		["general = 1", "general"],
		["[environments.x]\nv = { secret = 1 }", "environments.x.v"],
		["[environments]\nx = 1", "environments.x"],
		["[connections.db]\ntype = \"sqlite\"", "connections.db.path"],
	])("rejects %j at %s", (text, key) => {
		const r = parseSettings(text);
		expect(r.ok && r.errors.map((e) => e.key)).toEqual([key]);
	});

	it("resolves an environment's variables with secrets from the secret store", () => {
		const r = parseSettings(fixture("commented.toml"));
		if (!r.ok) throw new Error("expected ok");
		const env = environmentVariables(r.settings, "dev", (id) => (id === "dev-token" ? "s3cret" : undefined));
		expect(env).toEqual({ variables: { base_url: "http://127.0.0.1:8080", token: "s3cret", port: "8080" }, secretValues: ["s3cret"], missingSecrets: [], secretNames: ["token"], unsetSecretNames: [], auth: {} });
		expect(environmentVariables(r.settings, "dev", () => undefined).missingSecrets).toEqual(["dev-token"]);
		expect(environmentVariables(r.settings, "dev", () => undefined).unsetSecretNames).toEqual(["token"]);
		expect(environmentVariables(r.settings, "nope", () => undefined).variables).toEqual({});
	});
});
