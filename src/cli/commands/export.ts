import { parseNote } from "../../blocks";
import { aliasBlocks, referencedAliases, type Preparation } from "../../runner/prepare";
import { allSnippetFormats, createEngine, exportingKinds, isExportable, isRunnable, writeSnippet } from "../../runner/engine";
import { cliPorts, cliTls, nodeBodyFiles } from "../engine-ports";
import { persistedCookies } from "../cookie-file";
import { locateBodyFile } from "../../runner/file-parts";
import { readNote } from "../read-note";
import { EXIT, UsageError } from "../usage";
import { findVault, loadSettings, selectEnvironment } from "../vault";

type Write = (s: string) => void;

/** `a, b or c`. */
const orList = (words: readonly string[]): string => (words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}`);

export interface ExportOptions {
	file: string;
	alias: string;
	format: string;
	env?: string;
	/** `--var NAME=VALUE`: values over the environment's. */
	overrides?: Record<string, string>;
	config?: string;
}

/**
 * `runnable-blocks export`: prints the block as a snippet with its references replaced by the
 * values Run would send (`engine.prepare`). A block that reads other blocks' results runs them
 * first (said on stderr); the block itself is not sent. Exit 0 printed, 2 anything that stops the
 * export (one line on stderr).
 */
export async function exportCommand(opts: ExportOptions, out: Write, err: Write): Promise<number> {
	// Every kind's formats; whether the block's kind exports to this one is its own rule (`writeSnippet`).
	const formats = allSnippetFormats();
	if (!formats.includes(opts.format)) throw new UsageError(`--format must be one of ${formats.join(", ")}`);
	const note = parseNote(readNote(opts.file));
	// The kinds that export are their runners' to say (`isExportable`): http and the streams.
	const block = note.find((b) => isExportable(b) && isRunnable(b) && b.alias === opts.alias);
	if (!block) throw new UsageError(`no ${orList(exportingKinds())} block with alias "${opts.alias}"`);
	const problems = block.problems.filter((p) => p.severity === "error");
	if (problems.length > 0) throw new UsageError(`cannot export ${opts.alias}: ${opts.file}:${problems[0].line + 1}:${problems[0].column + 1}: ${problems[0].message}`);
	const vault = findVault(opts.file, opts.config);
	const settings = loadSettings(vault.configPath, err);
	const env = selectEnvironment(settings, opts.env, err, { overrides: opts.overrides });
	const deps = referencedAliases(block, new Set(aliasBlocks(note).keys()));
	// History and cookies only when blocks run: an export that runs nothing writes nothing.
	const engine = createEngine(cliPorts({ historyPath: deps.length > 0 ? vault.historyPath : null, useCache: true, env, tls: cliTls(settings, vault.root), defaultTimeoutMs: settings.general.timeout, filesRoot: vault.root, warn: err }));
	const saveCookies = deps.length > 0 ? persistedCookies(engine.cookies, vault, settings.general.persistCookies, err) : () => undefined;
	let prepared: Preparation;
	try {
		if (deps.length > 0) {
			err(`running ${deps.join(", ")} first for the values ${opts.alias} references\n`);
			await engine.run(vault.notePath, note, note.filter((b) => b.alias !== null && deps.includes(b.alias)));
		}
		await engine.readNoteFiles(vault.notePath, note);
		prepared = engine.prepare(vault.notePath, note, block);
	} finally {
		await engine.close();
		saveCookies();
	}
	if (!prepared.ok) {
		err(`runnable-blocks: cannot export ${opts.alias}: ${prepared.error.message}\n`);
		return EXIT.usage;
	}
	const files = nodeBodyFiles(vault.root);
	const written = writeSnippet(block, opts.format, prepared, { locate: (path) => locateBodyFile(files, vault.notePath, path) });
	if (!written.ok) {
		err(`runnable-blocks: cannot export ${opts.alias}: ${written.error.message}\n`);
		return EXIT.usage;
	}
	out(written.text.replace(/\n?$/, "\n"));
	return EXIT.ok;
}
