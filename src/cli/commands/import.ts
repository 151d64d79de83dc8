import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import { httpFileToNote, parseNote } from "../../blocks";
import { jetbrainsAuthImport, writeAuthImport } from "../../settings/jetbrains-auth";
import { EXIT, UsageError } from "../usage";

type Write = (s: string) => void;

/** JetBrains' env files, read from beside the .http file. */
const ENV_FILES = ["http-client.env.json", "http-client.private.env.json"] as const;

/**
 * `runnable-blocks import <file.http> [-o note.md] [--config user.toml]`: the note on stdout, or
 * written to a new file; the auth configurations of JetBrains' env files beside it go into the
 * user.toml of --config.
 */
export function importCommand(opts: { file: string; output?: string; config?: string }, out: Write, err: Write): number {
	let text: string;
	try {
		text = readFileSync(opts.file, "utf8");
	} catch (e) {
		throw new UsageError(`${opts.file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
	}
	const note = httpFileToNote(text, basename(opts.file, extname(opts.file)));
	const problems = parseNote(note).flatMap((b) => b.problems.filter((p) => p.severity === "error").map((p) => `line ${p.line + 1}: ${p.message}`));
	if (opts.output === undefined) out(note);
	else {
		if (existsSync(opts.output)) throw new UsageError(`${opts.output} exists: choose a new file`);
		writeFileSync(opts.output, note);
		err(`wrote ${opts.output}\n`);
	}
	// The note is written as read; what will not run is said, not fixed.
	for (const p of problems) err(`${opts.output ?? "note"}: ${p}\n`);
	importEnvAuth(dirname(opts.file), opts.config, err);
	return EXIT.ok;
}

/** The auth configurations of the env files in `dir`: written to `config`, or said what would be. */
function importEnvAuth(dir: string, config: string | undefined, err: Write): void {
	const [publicEnv, privateEnv] = ENV_FILES.map((name) => readJson(join(dir, name), err));
	if (publicEnv === undefined && privateEnv === undefined) return;
	const imported = jetbrainsAuthImport(publicEnv, privateEnv);
	if (imported.configs.length === 0 && imported.notes.length === 0) return;
	const label = (c: { env: string; name: string }) => `[environments.${c.env}.auth.${c.name}]`;
	for (const n of imported.notes) err(`auth ${n.env}.${n.name}${n.key ? ` "${n.key}"` : ""}: ${n.message}\n`);
	if (config === undefined) {
		if (imported.configs.length > 0) err(`the env files hold ${imported.configs.map(label).join(", ")}: pass --config user.toml to add them\n`);
		return;
	}
	const written = writeAuthImport(existsSync(config) ? readFileSync(config, "utf8") : "", imported);
	if (!written.ok) throw new UsageError(`${config}: ${written.message}`);
	writeFileSync(config, written.text);
	for (const c of written.written) err(`added ${label(c)} to ${config}\n`);
	for (const c of written.kept) err(`kept ${label(c)} of ${config}: it exists, the env file's was not imported\n`);
	const secrets = imported.secrets.filter((s) => written.written.some((c) => c.env === s.env && c.name === s.name));
	if (secrets.length > 0) err(`set these secrets (the CLI reads RUNNABLE_BLOCKS_SECRET_<ID>): ${secrets.map((s) => s.id).join(", ")}\n`);
}

function readJson(path: string, err: Write): unknown {
	if (!existsSync(path)) return undefined;
	try {
		return JSON.parse(readFileSync(path, "utf8")) as unknown;
	} catch (e) {
		err(`${path}: not read (${e instanceof Error ? e.message : String(e)})\n`);
		return undefined;
	}
}
