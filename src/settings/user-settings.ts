import { toml } from "./toml";
import { defaultChatSettings, parseChatTable, type ChatSettings } from "./chat-settings";
import { KEYMAP_PRESETS, type KeymapPreset } from "./keymap";
import { parseConnection, type Connection } from "./connections";
import { parseAuthConfig, resolveAuthConfigs, type AuthConfig, type ResolvedAuth } from "./auth-config";
import { locate } from "./toml-locate";
import { defaultVcsSettings, parseVcsTable, type VcsSettings } from "./vcs-settings";
import { parseTlsTable, type TlsSetting } from "./tls-settings";

export type TransportSetting = "auto" | "node" | "obsidian" | "fetch";
export const TRANSPORTS: readonly TransportSetting[] = ["auto", "node", "obsidian", "fetch"];

/**
 * A variable's value: written in user.toml, or — when marked secret — kept in Obsidian's
 * secret storage under an id, written in user.toml as `name = { secret = "id" }`.
 */
export type VariableValue = { value: string } | { secret: string };

export type { Connection } from "./connections";

/** `[general] parallel`: blocks a run may have in flight at once, by default and at most (a note is not a load test). */
export const DEFAULT_PARALLEL = 4;
export const MAX_PARALLEL = 64;

/** The settings of docs/settings.md, as `user.toml` holds them. */
export interface Settings {
	general: {
		/** Active environment name ("" for none). */
		environment: string;
		/** Default block timeout, ms. */
		timeout: number;
		transport: TransportSetting;
		/** Which global chords are bound before `[keymap]` (docs/shortcuts.md): none, or the design's. */
		keymapPreset: KeymapPreset;
		/** Keep the cookie jars across sessions (a file beside user.toml, never in history). Default false. */
		persistCookies: boolean;
		/** How many blocks of a note "Run all" runs at once (docs/blocks.md, "Running blocks in parallel"); 1 runs them one after another. */
		parallel: number;
	};
	/** Action id → binding, as written (validated by the keymap). */
	keymap: Record<string, string>;
	environments: Record<string, Record<string, VariableValue>>;
	connections: Record<string, Connection>;
	/** Auth configurations by environment, then name: `[environments.<env>.auth.<name>]` (docs/auth.md). */
	auth: Record<string, Record<string, AuthConfig>>;
	/** The chat panel's endpoint and limits (docs/chat.md). */
	chat: ChatSettings;
	/** The version-control panel (docs/vcs.md). */
	vcs: VcsSettings;
	/** TLS per server, by `host` or `host:port` (lower case): a CA, no verification, a client certificate. */
	tls: Record<string, TlsSetting>;
}

export function defaultSettings(): Settings {
	return { general: { environment: "", timeout: 30000, transport: "auto", keymapPreset: "obsidian", persistCookies: false, parallel: DEFAULT_PARALLEL }, keymap: {}, environments: {}, connections: {}, auth: {}, chat: defaultChatSettings(), vcs: defaultVcsSettings(), tls: {} };
}

/** A problem with a position in user.toml (1-based line and column). */
export interface SettingsProblem {
	file: string;
	line: number;
	column: number;
	/** Dotted key path, e.g. `general.timeout`, or "" for syntax errors. */
	key: string;
	message: string;
}

export type SettingsResult =
	| { ok: true; settings: Settings; errors: SettingsProblem[]; warnings: SettingsProblem[] }
	/** The file does not parse: keep the last good settings, and never write the file. */
	| { ok: false; errors: SettingsProblem[] };

export function formatProblem(p: SettingsProblem): string {
	return `${p.file}:${p.line}:${p.column}: ${p.key ? `${p.key}: ` : ""}${p.message}`;
}

type Table = Record<string, unknown>;
const isTable = (v: unknown): v is Table => typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
const keyName = (path: string[]) => path.map((p) => (/^[A-Za-z0-9_-]+$/.test(p) ? p : JSON.stringify(p))).join(".");

/**
 * Parses and validates user.toml. Syntax errors fail the whole file (with line and column);
 * an invalid value is an error for that key only, which keeps its default, so one typo
 * does not throw away the rest of the settings. Unknown keys are warnings and stay in the file.
 */
export function parseSettings(text: string, file = "user.toml"): SettingsResult {
	let doc: Table;
	const { parse, TomlError } = toml();
	try {
		doc = parse(text);
	} catch (e) {
		if (e instanceof TomlError) {
			const message = e.message.split("\n")[0].replace(/^Invalid TOML document: /, "");
			return { ok: false, errors: [{ file, line: e.line, column: e.column, key: "", message }] };
		}
		throw e;
	}
	const settings = defaultSettings();
	const errors: SettingsProblem[] = [];
	const warnings: SettingsProblem[] = [];
	const problem = (list: SettingsProblem[], path: string[], message: string) => list.push({ file, ...locate(text, path), key: keyName(path), message });
	const error = (path: string[], message: string) => problem(errors, path, message);
	const warn = (path: string[], message: string) => problem(warnings, path, message);
	const show = (v: unknown) => JSON.stringify(v instanceof Date ? v.toISOString() : v);

	for (const [section, value] of Object.entries(doc)) {
		if (!["general", "keymap", "environments", "connections", "chat", "vcs", "tls"].includes(section)) {
			warn([section], `unknown section "${section}" is kept but ignored`);
			continue;
		}
		if (!isTable(value)) error([section], `[${section}] must be a table`);
	}

	const general = isTable(doc.general) ? doc.general : {};
	for (const [k, v] of Object.entries(general)) {
		const path = ["general", k];
		if (k === "environment") {
			if (typeof v === "string") settings.general.environment = v;
			else error(path, `must be a string (got ${show(v)})`);
		} else if (k === "timeout") {
			if (typeof v === "number" && Number.isInteger(v) && v > 0) settings.general.timeout = v;
			else error(path, `must be a positive integer number of milliseconds (got ${show(v)})`);
		} else if (k === "transport") {
			if (typeof v === "string" && (TRANSPORTS as readonly string[]).includes(v)) settings.general.transport = v as TransportSetting;
			else error(path, `must be one of ${TRANSPORTS.join(", ")} (got ${show(v)})`);
		} else if (k === "persist_cookies") {
			if (typeof v === "boolean") settings.general.persistCookies = v;
			else error(path, `must be true or false (got ${show(v)})`);
		} else if (k === "parallel") {
			if (typeof v === "number" && Number.isInteger(v) && v >= 1 && v <= MAX_PARALLEL) settings.general.parallel = v;
			else error(path, `must be a whole number from 1 (one block after another) to ${MAX_PARALLEL} (got ${show(v)})`);
		} else if (k === "keymap_preset") {
			if (typeof v === "string" && (KEYMAP_PRESETS as readonly string[]).includes(v)) settings.general.keymapPreset = v as KeymapPreset;
			else error(path, `must be one of ${KEYMAP_PRESETS.join(", ")} (got ${show(v)})`);
		} else {
			warn(path, `unknown key "${k}" is kept but ignored`);
		}
	}

	const keymap = isTable(doc.keymap) ? doc.keymap : {};
	for (const [action, binding] of Object.entries(keymap)) {
		if (typeof binding === "string") settings.keymap[action] = binding;
		else error(["keymap", action], `must be a string such as "Mod+Enter" (got ${show(binding)})`);
	}

	const environments = isTable(doc.environments) ? doc.environments : {};
	for (const [name, vars] of Object.entries(environments)) {
		if (!isTable(vars)) {
			error(["environments", name], `must be a table of variables`);
			continue;
		}
		const env: Record<string, VariableValue> = {};
		for (const [k, v] of Object.entries(vars)) {
			const path = ["environments", name, k];
			if (k === "auth" && isTable(v)) {
				settings.auth[name] = parseAuthTables(v, [...path], error, warn);
				continue;
			}
			if (typeof v === "string") env[k] = { value: v };
			else if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") env[k] = { value: String(v) };
			else if (isTable(v) && typeof v.secret === "string" && Object.keys(v).length === 1) env[k] = { secret: v.secret };
			else error(path, `must be a string, a number, a boolean or { secret = "id" } (got ${show(v)})`);
		}
		settings.environments[name] = env;
	}
	const active = settings.general.environment;
	if (active && !(active in settings.environments)) {
		const names = Object.keys(settings.environments);
		error(["general", "environment"], `environment "${active}" is not defined${names.length ? ` (defined: ${names.join(", ")})` : ""}`);
	}

	const connections = isTable(doc.connections) ? doc.connections : {};
	for (const [name, c] of Object.entries(connections)) {
		const path = ["connections", name];
		if (!isTable(c)) {
			error(path, "must be a table");
			continue;
		}
		const connection = parseConnection(name, c, error, warn);
		if (connection) settings.connections[name] = connection;
	}
	if (isTable(doc.chat)) parseChatTable(doc.chat, settings.chat, (k, m) => error(["chat", k], m), (k, m) => warn(["chat", k], m));
	if (isTable(doc.vcs)) parseVcsTable(doc.vcs, settings.vcs, (k, m) => error(["vcs", k], m), (k, m) => warn(["vcs", k], m));
	for (const [server, t] of Object.entries(isTable(doc.tls) ? doc.tls : {})) {
		const at = (k: string) => (k ? ["tls", server, k] : ["tls", server]);
		if (!isTable(t)) error(at(""), `must be a table: [tls."${server}"] with ca, verify, cert, key`);
		else {
			const setting = parseTlsTable(server, t, (k, m) => error(at(k), m), (k, m) => warn(at(k), m));
			if (setting) settings.tls[server.toLowerCase()] = setting;
		}
	}
	return { ok: true, settings, errors, warnings };
}

/** `[environments.<env>.auth.*]`: each table one configuration; problems at their key paths. */
function parseAuthTables(tables: Table, at: string[], error: (path: string[], message: string) => void, warn: (path: string[], message: string) => void): Record<string, AuthConfig> {
	const out: Record<string, AuthConfig> = {};
	for (const [name, c] of Object.entries(tables)) {
		if (!isTable(c)) {
			error([...at, name], `must be a table: [${keyName([...at, name])}] with type = "oauth2" or "aws-sigv4"`);
			continue;
		}
		const config = parseAuthConfig(c, (k, m) => error([...at, name, k], m), (k, m) => warn([...at, name, k], m));
		if (config) out[name] = config;
	}
	return out;
}

/**
 * The variables of an environment with secret ids resolved through `readSecret`
 * (Obsidian's secret storage in the plugin; the CLI reads RUNNABLE_BLOCKS_SECRET_<ID>).
 */
/** An environment's variables as a run reads them. */
export interface EnvironmentValues {
	variables: Record<string, string>;
	/** Values of the secret variables that are set (value-based masking, the fallback). */
	secretValues: string[];
	/** Secret ids with no value. */
	missingSecrets: string[];
	/** Names of the variables that are secrets, set or not: their spans are masked wherever they are shown. */
	secretNames: string[];
	/** Names of the secret variables whose secret has no value: a reference to one says so. */
	unsetSecretNames: string[];
	/** The environment's auth configurations with their secrets read (their values are in `secretValues` too). */
	auth: Record<string, ResolvedAuth>;
}

export function environmentVariables(settings: Settings, name: string, readSecret: (id: string) => string | undefined): EnvironmentValues {
	const auth = resolveAuthConfigs(settings.auth[name] ?? {}, readSecret);
	const out: EnvironmentValues = { variables: {}, secretValues: Object.values(auth).flatMap((a) => Object.values(a.secrets)), missingSecrets: [], secretNames: [], unsetSecretNames: [], auth };
	for (const [k, v] of Object.entries(settings.environments[name] ?? {})) {
		if ("value" in v) {
			out.variables[k] = v.value;
			continue;
		}
		out.secretNames.push(k);
		const value = readSecret(v.secret);
		if (value === undefined) {
			out.missingSecrets.push(v.secret);
			out.unsetSecretNames.push(k);
		} else {
			out.variables[k] = value;
			out.secretValues.push(value);
		}
	}
	return out;
}
