import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type * as BookshopModule from "../../../examples/bookshop-api/server.cjs";
import type { NoteBlock } from "../../blocks";
import type { Terminal } from "../terminal";
import type { BlockResult } from "../../runner/result";
import { loadSqlJs } from "../../runner/sqljs";
import { nodeSqliteFile } from "../db-modules";
import { assertionsOf } from "../kind-outputs";
import { secretEnvName } from "../vault";
import { blockPassed, runCommand } from "./run";

type Write = (s: string) => void;

/** The package root (dist/cli.js in the build, src/cli/commands in tests): the folder with our package.json. */
function packageRoot(): string {
	let dir = __dirname;
	while (!existsSync(join(dir, "package.json")) || !readFileSync(join(dir, "package.json"), "utf8").includes('"name": "runnable-blocks"')) {
		const parent = dirname(dir);
		if (parent === dir) throw new Error("runnable-blocks: cannot find the package folder holding examples/vault");
		dir = parent;
	}
	return dir;
}

/** `# @expect cancelled|failed` and `# @cancel-after <ms>`, read from a block's head comments (demo only). */
export function demoDirectives(block: NoteBlock): { expect: BlockResult["state"] | null; cancelAfter?: number } {
	let expect: BlockResult["state"] | null = null;
	let cancelAfter: number | undefined;
	for (const line of block.kind === "http" ? block.http.lines : []) {
		if (line.kind !== "comment") continue;
		const e = /@expect\s+(done|cached|cancelled|failed)\b/.exec(line.text);
		if (e) expect = e[1] as BlockResult["state"];
		const c = /@cancel-after\s+(\d+)/.exec(line.text);
		if (c) cancelAfter = Number(c[1]);
	}
	return { expect, cancelAfter };
}

/** data/bookshop.sqlite is generated from data/bookshop.sql (scripts/make-bookshop-db.mjs does the same). */
async function ensureExampleDatabase(vault: string): Promise<void> {
	const target = join(vault, "data", "bookshop.sqlite");
	if (existsSync(target)) return;
	const SQL = await loadSqlJs();
	const db = new SQL.Database();
	db.exec(readFileSync(join(vault, "data", "bookshop.sql"), "utf8"));
	await nodeSqliteFile(vault, "data/bookshop.sqlite").write(db.export());
	db.close();
}

/** A block without `@expect` must pass as `run` counts it: finished, and its `??` assertions hold. */
function matches(result: BlockResult, expected: BlockResult["state"] | null): boolean {
	if (expected === null) return blockPassed(result, false);
	return result.state === expected;
}

/** How a block ended, for the unexpected line. */
function endOf(result: BlockResult): string {
	return (assertionsOf(result) ?? []).some((a) => !a.ok) ? `${result.state} with a failed assertion` : result.state;
}

/**
 * `runnable-blocks demo`: starts the bundled bookshop API on a free 127.0.0.1 port, runs every
 * note of examples/vault against it (base_url points at the live API) and prints a summary.
 * Exit 0 when every block ended as its note says it should. `vault` is another folder laid out
 * as examples/vault (its spec runs on a copy: a run writes history and the database file).
 */
export async function runDemo(out: Write, err: Write, terminal: Terminal, vault = join(packageRoot(), "examples", "vault")): Promise<number> {
	// Required here, not imported at the top: `run` and the other commands never evaluate the
	// demo server (the bundle keeps it behind this call). No import(): see docs/architecture.md.
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when the demo runs
	const { startBookshopApi } = require("../../../examples/bookshop-api/server.cjs") as typeof BookshopModule;
	const api = await startBookshopApi({ port: 0 });
	// The demo environment's password is a secret reference; the CLI reads secrets from the environment.
	const secret = secretEnvName("demo-password");
	process.env[secret] ??= "demo";
	out(`Runnable Blocks demo — bookshop API on ${api.url}\nVault: ${vault}\n`);
	let total = 0;
	let unexpected = 0;
	let expectedFailures = 0;
	// Everything after the API started is inside the try: an open server would keep the process alive.
	try {
		await ensureExampleDatabase(vault);
		for (const name of readdirSync(vault).filter((f) => f.endsWith(".md") && f !== "README.md").sort()) {
			out(`\n▶ ${name}\n`);
			const { runs } = await runCommand(
				{
					file: join(vault, name),
					aliases: [],
					json: false,
					noCache: false,
					failOnStatus: false,
					// Colour and progress as the terminal allows, but no body previews: the demo runs
					// thirty-odd blocks and its point is the summary; `run` shows previews.
					terminal: { ...terminal, rich: false },
					overrides: { base_url: api.url },
					cancelAfter: (b) => demoDirectives(b).cancelAfter,
				},
				out,
				err,
			);
			for (const { block, result } of runs) {
				total++;
				const { expect } = demoDirectives(block);
				if (!matches(result, expect)) {
					unexpected++;
					out(`  ✗ unexpected: ${block.alias ?? `line ${block.fence.startLine + 1}`} ended ${endOf(result)}${expect ? `, expected ${expect}` : ""}\n`);
				} else if (expect) {
					expectedFailures++;
				}
			}
		}
	} finally {
		await api.close();
	}
	out(`\nDemo: ${total} blocks run, ${total - unexpected - expectedFailures} finished, ${expectedFailures} ended as expected (cancelled/failed on purpose), ${unexpected} unexpected.\n`);
	return unexpected === 0 ? 0 : 1;
}
