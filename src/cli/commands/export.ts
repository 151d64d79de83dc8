import { parseNote } from "../../blocks";
import { prepareRequest, referencedAliases } from "../../runner/prepare";
import { createEngine } from "../../runner/engine";
import type { BlockResult } from "../../runner/result";
import type { ResultStore } from "../../runner/run-note";
import { exported } from "../../runner/snippets/quote";
import { snippet, SNIPPET_FORMATS, type SnippetFormat } from "../../runner/snippets/generators";
import { cliPorts, nodeBodyFiles } from "../engine-ports";
import { persistedCookies } from "../cookie-file";
import { locateBodyFile } from "../../runner/file-parts";
import { readNote } from "../read-note";
import { EXIT, UsageError } from "../usage";
import { findVault, loadSettings, selectEnvironment } from "../vault";

type Write = (s: string) => void;

export interface ExportOptions {
	file: string;
	alias: string;
	format: string;
	env?: string;
	config?: string;
}

/**
 * `runnable-blocks export`: prints the block as a snippet with its references replaced by
 * values. A block that reads other blocks' results runs them first (said on stderr); the
 * block itself is not sent. Exit 0 printed, 2 anything that stops the export (one line on stderr).
 */
export async function exportCommand(opts: ExportOptions, out: Write, err: Write): Promise<number> {
	if (!(SNIPPET_FORMATS as readonly string[]).includes(opts.format)) throw new UsageError(`--format must be one of ${SNIPPET_FORMATS.join(", ")}`);
	const note = parseNote(readNote(opts.file));
	const block = note.find((b) => b.kind === "http" && b.alias === opts.alias);
	if (!block) throw new UsageError(`no http block with alias "${opts.alias}"`);
	const problems = block.problems.filter((p) => p.severity === "error");
	if (problems.length > 0) throw new UsageError(`cannot export ${opts.alias}: ${opts.file}:${problems[0].line + 1}:${problems[0].column + 1}: ${problems[0].message}`);
	const vault = findVault(opts.file, opts.config);
	const settings = loadSettings(vault.configPath, err);
	const env = selectEnvironment(settings, opts.env, err);
	const aliases = new Set(note.filter((b) => b.alias !== null && b.runnable).map((b) => b.alias as string));
	const deps = referencedAliases(block, aliases);
	let results: Pick<ResultStore, "get"> = new Map<string, BlockResult>();
	if (deps.length > 0) {
		err(`running ${deps.join(", ")} first for the values ${opts.alias} references\n`);
		const engine = createEngine(cliPorts({ historyPath: vault.historyPath, useCache: true, env, defaultTimeoutMs: settings.general.timeout, filesRoot: vault.root, warn: err }));
		const saveCookies = persistedCookies(engine.cookies, vault, settings.general.persistCookies, err);
		try {
			await engine.run(vault.notePath, note, note.filter((b) => b.alias !== null && deps.includes(b.alias)));
		} finally {
			await engine.close();
			saveCookies();
		}
		results = engine.sessions.note(vault.notePath);
	}
	const prepared = prepareRequest(block, { env: env.variables, aliases, result: (a) => results.get(a), defaultTimeoutMs: settings.general.timeout });
	if (!prepared.ok) {
		err(`runnable-blocks: cannot export ${opts.alias}: ${prepared.error.message}\n`);
		return EXIT.usage;
	}
	const files = nodeBodyFiles(vault.root);
	const written = exported(() => snippet(opts.format as SnippetFormat, prepared.request, block.alias, { locate: (path) => locateBodyFile(files, vault.notePath, path) }));
	if (!written.ok) {
		err(`runnable-blocks: cannot export ${opts.alias}: ${written.error.message}\n`);
		return EXIT.usage;
	}
	out(written.text.replace(/\n?$/, "\n"));
	return EXIT.ok;
}
