import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { findVault, loadSettings, secretEnvName, selectEnvironment } from "../../../src/cli/vault";
import { UsageError } from "../../../src/cli/usage";
import { defaultSettings, parseSettings } from "../../../src/settings/user-settings";

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), "rb-vault-"))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("findVault", () => {
	it("finds the nearest folder holding .obsidian, and names the note and files as the plugin does", () => {
		const vault = join(dir, "vault");
		const plugin = join(vault, ".obsidian", "plugins", "runnable-blocks");
		mkdirSync(plugin, { recursive: true });
		mkdirSync(join(vault, "api", "v1"), { recursive: true });
		writeFileSync(join(plugin, "user.toml"), "");
		expect(findVault(join(vault, "api", "v1", "n.md"))).toEqual({ root: vault, notePath: "api/v1/n.md", historyPath: join(plugin, "history.sqlite"), configPath: join(plugin, "user.toml") });
	});

	it("has no user.toml when the plugin folder holds none, unless --config names one", () => {
		const vault = join(dir, "bare");
		mkdirSync(join(vault, ".obsidian"), { recursive: true });
		expect(findVault(join(vault, "n.md")).configPath).toBeNull();
		expect(findVault(join(vault, "n.md"), "other.toml").configPath).toBe(resolve("other.toml"));
	});

	it("is no vault outside one: the absolute note path, no history", () => {
		const loose = join(dir, "loose");
		mkdirSync(loose, { recursive: true });
		const v = findVault(join(loose, "n.md"));
		if (v.root !== null) return; // a test machine whose temp folder is inside a vault
		expect(v).toEqual({ root: null, notePath: join(loose, "n.md"), historyPath: null, configPath: null });
	});
});

describe("loadSettings", () => {
	it("gives the defaults without a file, and the file's settings with warnings for invalid values", () => {
		expect(loadSettings(null, () => undefined)).toEqual(defaultSettings());
		const path = join(dir, "user.toml");
		writeFileSync(path, '[general]\nenvironment = "dev"\ntimeout = "soon"\n[environments.dev]\na = "1"\n');
		const warnings: string[] = [];
		const s = loadSettings(path, (w) => warnings.push(w));
		expect(s.general.environment).toBe("dev");
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toContain("user.toml:3");
	});

	it("refuses a file that cannot be read or parsed, as a usage error", () => {
		expect(() => loadSettings(join(dir, "none.toml"), () => undefined)).toThrow(new UsageError(`${join(dir, "none.toml")}: cannot read the settings (ENOENT)`));
		const broken = join(dir, "broken.toml");
		writeFileSync(broken, "[general\n");
		expect(() => loadSettings(broken, () => undefined)).toThrow(UsageError);
	});
});

describe("secretEnvName", () => {
	it("maps a secret id to its environment variable", () => {
		expect(secretEnvName("dev-token")).toBe("RUNNABLE_BLOCKS_SECRET_DEV_TOKEN");
		expect(secretEnvName("a.b c")).toBe("RUNNABLE_BLOCKS_SECRET_A_B_C");
	});
});

describe("selectEnvironment", () => {
	const parsed = parseSettings(
		'[general]\nenvironment = "dev"\n[environments.dev]\nbase = "http://127.0.0.1"\ntoken = { secret = "rb-spec-token" }\nkey = { secret = "rb-spec-key" }\n[environments.prod]\nbase = "https://x"\n',
		"user.toml",
	);
	if (!parsed.ok) throw new Error("settings of the spec do not parse");
	const settings = parsed.settings;
	afterEach(() => delete process.env.RUNNABLE_BLOCKS_SECRET_RB_SPEC_TOKEN);

	it("takes the active environment, its secrets from the process environment, and warns of each unset one", () => {
		process.env.RUNNABLE_BLOCKS_SECRET_RB_SPEC_TOKEN = "s3cret";
		const warnings: string[] = [];
		const env = selectEnvironment(settings, undefined, (w) => warnings.push(w));
		expect(env).toEqual({ name: "dev", auth: {}, variables: { base: "http://127.0.0.1", token: "s3cret" }, secretValues: ["s3cret"], secrets: { names: new Set(["token", "key"]), unset: new Set(["key"]) } });
		expect(warnings).toEqual(['secret "rb-spec-key" is not set: export RUNNABLE_BLOCKS_SECRET_RB_SPEC_KEY to use it\n']);
	});

	it("warns only of the unset secrets the run reads", () => {
		const warnings: string[] = [];
		selectEnvironment(settings, "dev", (w) => warnings.push(w), { reads: () => new Set(["token"]) });
		expect(warnings).toEqual(['secret "rb-spec-token" is not set: export RUNNABLE_BLOCKS_SECRET_RB_SPEC_TOKEN to use it\n']);
	});

	it("puts the command line's values over the environment's; one for a secret sets that secret, masked as it is", () => {
		const warnings: string[] = [];
		const env = selectEnvironment(settings, "dev", (w) => warnings.push(w), { overrides: { base: "http://127.0.0.1:9", key: "k=1", extra: "" } });
		expect(env.variables).toEqual({ base: "http://127.0.0.1:9", key: "k=1", extra: "" });
		expect(env.secretValues).toEqual(["k=1"]);
		expect(env.secrets).toEqual({ names: new Set(["token", "key"]), unset: new Set(["token"]) });
		// Only the secret still without a value is warned about.
		expect(warnings).toEqual(['secret "rb-spec-token" is not set: export RUNNABLE_BLOCKS_SECRET_RB_SPEC_TOKEN to use it\n']);
	});

	it("refuses an environment that is not defined, naming those that are", () => {
		expect(() => selectEnvironment(settings, "staging", () => undefined)).toThrow(new UsageError('no environment "staging" (defined: dev, prod)'));
		expect(selectEnvironment(settings, "prod", () => undefined).variables).toEqual({ base: "https://x" });
	});
});
