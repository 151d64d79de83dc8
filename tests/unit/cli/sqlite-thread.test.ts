import { threadWorker } from "../../../src/cli/sqlite-thread";

describe("the CLI's SQLite worker thread", () => {
	// Jest has no bundled worker source (worker: imports map to ""), the case of a build without it.
	it("starts no thread without the bundled source, so the driver runs sql.js on the calling thread", () => {
		const heard: string[] = [];
		expect(threadWorker({ message: () => heard.push("message"), gone: (why) => heard.push(why) })).toBeNull();
		expect(heard).toEqual([]);
	});
});
