import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { defaultSettings, environmentVariables, formatProblem, parseSettings, type EnvironmentValues, type Settings } from "../settings/user-settings";
import { UsageError } from "./usage";

/** Obsidian's default config folder; the CLI cannot see a custom one, `--config` covers that case. */
const CONFIG_DIR = ".obsidian";
const PLUGIN_DIR = join("plugins", "runnable-blocks");

export interface CliVault {
	/** The vault root, or null when the note is not inside a vault. */
	root: string | null;
	/** The note's vault path (forward slashes), as Obsidian names it: history rows match the plugin's. */
	notePath: string;
	/** Where history.sqlite lives, or null outside a vault. */
	historyPath: string | null;
	configPath: string | null;
}

/** The vault is the nearest ancestor folder holding `.obsidian`. */
export function findVault(notePath: string, configOverride?: string): CliVault {
	const abs = resolve(notePath);
	let dir = dirname(abs);
	let root: string | null = null;
	for (;;) {
		if (existsSync(join(dir, CONFIG_DIR)) && statSync(join(dir, CONFIG_DIR)).isDirectory()) {
			root = dir;
			break;
		}
		const parent = dirname(dir);
		if (parent === dir) break;
		dir = parent;
	}
	const pluginDir = root ? join(root, CONFIG_DIR, PLUGIN_DIR) : null;
	const defaultConfig = pluginDir ? join(pluginDir, "user.toml") : null;
	return {
		root,
		notePath: root ? relative(root, abs).split(sep).join("/") : abs,
		historyPath: pluginDir ? join(pluginDir, "history.sqlite") : null,
		configPath: configOverride ? resolve(configOverride) : defaultConfig && existsSync(defaultConfig) ? defaultConfig : null,
	};
}

/** Reads and validates user.toml: a syntax error is a usage error (exit 2); invalid values are warnings on stderr. */
export function loadSettings(path: string | null, warn: (s: string) => void): Settings {
	if (!path) return defaultSettings();
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch (e) {
		throw new UsageError(`${path}: cannot read the settings (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
	}
	const result = parseSettings(text, path);
	if (!result.ok) throw new UsageError(result.errors.map(formatProblem).join("\n"));
	for (const p of [...result.errors, ...result.warnings]) warn(`${formatProblem(p)}\n`);
	return result.settings;
}

/** Secret ids map to environment variables: `dev-token` → RUNNABLE_BLOCKS_SECRET_DEV_TOKEN. */
export function secretEnvName(id: string): string {
	return `RUNNABLE_BLOCKS_SECRET_${id.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`;
}

export interface CliEnvironment {
	name: string;
	variables: Record<string, string>;
	secretValues: string[];
	/** The secret variables (all, and those with no value): masked by span; unset ones say so. */
	secrets: { names: ReadonlySet<string>; unset: ReadonlySet<string> };
	/** Auth configurations of the environment, secrets read from RUNNABLE_BLOCKS_SECRET_<ID>. */
	auth?: EnvironmentValues["auth"];
}

export interface EnvironmentChoice {
	/** The variables a run reads, from the environment's values: only their unset secrets are warned about. */
	reads?: (variables: Readonly<Record<string, string>>) => ReadonlySet<string>;
	/**
	 * Values over the environment's for this run (`--var`, the demo's base_url). One that stands
	 * for a secret variable is that secret's value: set, and masked as the secret is.
	 */
	overrides?: Readonly<Record<string, string>>;
}

/**
 * The environment `--env` names, or the settings' active one, with `overrides` over its values.
 * Each secret with no value is warned about, or, given `reads`, only those the run reads.
 */
export function selectEnvironment(settings: Settings, name: string | undefined, warn: (s: string) => void, { reads, overrides = {} }: EnvironmentChoice = {}): CliEnvironment {
	const chosen = name ?? settings.general.environment;
	if (name !== undefined && !(name in settings.environments)) {
		const names = Object.keys(settings.environments);
		throw new UsageError(`no environment "${name}"${names.length ? ` (defined: ${names.join(", ")})` : " (user.toml defines none)"}`);
	}
	const env = environmentVariables(settings, chosen, (id) => process.env[secretEnvName(id)]);
	const variables = { ...env.variables, ...overrides };
	const secretNames = new Set(env.secretNames);
	const secretValues = [...env.secretValues, ...Object.keys(overrides).flatMap((k) => (secretNames.has(k) && overrides[k] !== "" ? [overrides[k]] : []))];
	const unset = new Set(env.unsetSecretNames.filter((k) => !Object.prototype.hasOwnProperty.call(overrides, k)));
	const read = reads?.(variables);
	const values = settings.environments[chosen] ?? {};
	const unsetIds = new Set([...unset].filter((v) => read?.has(v) ?? true).flatMap((v) => ("secret" in values[v] ? [values[v].secret] : [])));
	for (const id of unsetIds) warn(`secret "${id}" is not set: export ${secretEnvName(id)} to use it\n`);
	return { name: chosen, variables, secretValues, secrets: { names: secretNames, unset }, auth: env.auth };
}
