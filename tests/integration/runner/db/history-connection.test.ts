/**
 * The built-in `history` connection end to end: real http runs against a local server recorded by
 * each history backend (sql.js on this thread, the plugin's SQLite worker, the CLI's native
 * SQLite), then a db block over `history` reading the rows those runs wrote — before any of them
 * reached the file — and refused when it tries to write.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import initSqlJs from "sql.js";
import { blockKey, parseNote } from "../../../../src/blocks";
import { openNativeHistory } from "../../../../src/cli/native-history";
import { nodeStorage } from "../../../../src/cli/node-storage";
import { DbDrivers } from "../../../../src/runner/db/connect";
import { dbOf } from "../../../../src/runner/db/db-result";
import { historySqliteFile } from "../../../../src/runner/db/history-connection";
import { DeferredHistory } from "../../../../src/runner/deferred-history";
import { createEngine, type EnginePorts } from "../../../../src/runner/engine";
import { HistoryStore, type RunHistoryStore } from "../../../../src/runner/history-store";
import { createHistoryWorkerHandler } from "../../../../src/runner/history-worker-handler";
import type { HistoryRequest, HistoryResponse } from "../../../../src/runner/history-worker-protocol";
import { createNodeTransport } from "../../../../src/runner/http/node-transport";
import { loadSqlJs } from "../../../../src/runner/sqljs";
import { openWorkerHistory, type HistoryWorkerFactory } from "../../../../src/runner/worker-history";
import { withBuiltInConnections } from "../../../../src/settings/connections";
import { startTestServer, type TestServer } from "../../../support/servers";

jest.setTimeout(30_000);

let server: TestServer;
let dir: string;
beforeAll(async () => {
	server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "rb-history-connection-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The plugin's SQLite worker, run in this thread: the real handler, messages copied and delivered in a later task. */
const inThreadWorker: HistoryWorkerFactory = (events) => {
	const handle = createHistoryWorkerHandler(
		(message: HistoryResponse) => setImmediate(() => events.message(structuredClone(message))),
		(wasm) => initSqlJs({ wasmBinary: wasm }),
	);
	return { post: (request: HistoryRequest) => setImmediate(() => handle(structuredClone(request))), terminate: () => undefined };
};

const BACKENDS: Array<[string, (path: string) => Promise<RunHistoryStore>]> = [
	["sql.js on the calling thread", (path) => HistoryStore.open(nodeStorage, path, { debounceMs: 60_000 })],
	["the plugin's SQLite worker", async (path) => (await openWorkerHistory(inThreadWorker, nodeStorage, path)) as RunHistoryStore],
	["the CLI's native SQLite", (path) => Promise.resolve(openNativeHistory(path) as RunHistoryStore)],
];

function ports(open: () => Promise<RunHistoryStore>): EnginePorts & { close(): Promise<void> } {
	const history = new DeferredHistory(open, (e) => {
		throw e;
	});
	const transport = createNodeTransport();
	const drivers = new DbDrivers({
		sqlJs: loadSqlJs,
		sqliteFile: () => {
			throw new Error("no vault files in this test");
		},
		historyFile: () => historySqliteFile(history),
		readSecret: () => undefined,
	});
	return {
		transport: () => transport,
		history: () => history,
		environment: () => ({ name: "local", variables: { base: server.url }, secretValues: [], secretNames: [], unsetSecretNames: [] }),
		defaultTimeoutMs: () => 5000,
		kinds: () => ({ db: { connections: withBuiltInConnections({}), drivers } }),
		close: async () => {
			transport.close();
			await drivers.closeAll();
			await history.close();
		},
	};
}

const NOTE = [
	"```http alias=list",
	"GET {{base}}/json",
	"```",
	"",
	"```http alias=boom",
	"GET {{base}}/status/503",
	"```",
	"",
	"```db connection=history alias=runs",
	"SELECT alias, method, url, status, outcome, response_bytes > 0 AS answered, duration_ms >= 0 AS timed, transport",
	"FROM block_run_history WHERE file_path = 'api.md' ORDER BY id",
	"```",
	"",
	"```db connection=history alias=wipe",
	"SELECT count(*) FROM block_run_history;",
	"DELETE FROM block_run_history",
	"```",
	"",
].join("\n");

describe.each(BACKENDS)("a db block over history, kept by %s", (_name, open) => {
	it("returns the rows the runs wrote, its own runs included, and refuses a write without touching history", async () => {
		const path = join(dir, "history.sqlite");
		const svc = ports(() => open(path));
		const engine = createEngine(svc);
		const note = parseNote(NOTE);
		const [list, boom, runs, wipe] = note;

		await engine.run("api.md", note, [list, boom]);
		const [first] = await engine.run("api.md", note, [runs]);
		expect(first.result.state).toBe("done");
		const url = (p: string) => `${server.url}${p}`;
		expect(dbOf(first.result)?.rows).toEqual([
			{ alias: "list", method: "GET", url: url("/json"), status: 200, outcome: "done", answered: 1, timed: 1, transport: "node" },
			{ alias: "boom", method: "GET", url: url("/status/503"), status: 503, outcome: "done", answered: 1, timed: 1, transport: "node" },
		]);

		// The query's own run is history too: the next query sees it.
		const [second] = await engine.run("api.md", note, [runs]);
		expect(dbOf(second.result)?.rows.slice(2)).toEqual([{ alias: "runs", method: "SELECT", url: "db:history", status: null, outcome: "done", answered: 0, timed: 1, transport: "sqlite" }]);

		const [refused] = await engine.run("api.md", note, [wipe]);
		expect(refused.result.state).toBe("failed");
		expect(refused.result.error).toEqual({ code: "read_only", message: "The history connection is read-only: DELETE statements are refused (run history is only ever written by runs)" });
		// The DELETE is underlined (0-based note line); nothing ran, not even the statement before it (a block refused before it runs adds no row).
		expect(dbOf(refused.result)?.errorAt).toEqual({ line: 15, column: 0 });
		expect(engine.sessions.note("api.md").snapshot(blockKey(wipe)).state).toBe("failed");

		await svc.close();
		const SQL = await initSqlJs();
		const file = new SQL.Database(readFileSync(path));
		expect(file.exec("SELECT alias, outcome FROM block_run_history ORDER BY id")[0].values).toEqual([
			["list", "done"],
			["boom", "done"],
			["runs", "done"],
			["runs", "done"],
		]);
	});
});

it("is an empty table, with every column, before anything ran (no file is created by reading it)", async () => {
	const path = join(dir, "history.sqlite");
	const svc = ports(() => HistoryStore.open(nodeStorage, path));
	const engine = createEngine(svc);
	const note = parseNote("```db connection=history\nSELECT * FROM block_run_history\n```\n");
	const [r] = await engine.run("empty.md", note, note);
	expect(dbOf(r.result)).toMatchObject({ rows: [], rowCount: 0 });
	expect(dbOf(r.result)?.columns.map((c) => c.name)).toEqual(["id", "file_path", "alias", "method", "url", "status", "outcome", "request_bytes", "response_bytes", "duration_ms", "timestamp", "error_code", "transport", "row_count", "close_code", "sent_count"]);
	expect(existsSync(path)).toBe(false);
	await svc.close();
});
