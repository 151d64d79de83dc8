/**
 * Fixtures a spec sets up with one line instead of four hooks: jest's hooks start and end them,
 * and the spec reads them through the returned function (they exist only once the hooks ran).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestServer, type TestServer } from "./servers";

/** The test server for every test of the file, its request log emptied before each test. */
export function useTestServer(): () => TestServer {
	let server: TestServer | undefined;
	beforeAll(async () => {
		server = await startTestServer();
	});
	afterAll(() => server?.close());
	beforeEach(() => {
		if (server) server.requests.length = 0;
	});
	return () => {
		if (!server) throw new Error("useTestServer: the server starts in beforeAll; read it inside a test");
		return server;
	};
}

/** A new temporary folder for each test (no .obsidian above it: no vault), removed after it. */
export function useTempDir(prefix: string): () => string {
	let dir: string | undefined;
	beforeEach(() => {
		dir = mkdtempSync(join(tmpdir(), prefix));
	});
	afterEach(() => {
		if (dir) rmSync(dir, { recursive: true, force: true });
		dir = undefined;
	});
	return () => {
		if (!dir) throw new Error("useTempDir: the folder is made in beforeEach; read it inside a test");
		return dir;
	};
}
