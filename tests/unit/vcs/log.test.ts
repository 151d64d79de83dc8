import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LOG_FORMAT, parseLog } from "../../../src/vcs/log";
import { git } from "../../support/git";

const HASH = "a".repeat(40);
const record = (...fields: string[]) => fields.join("\x1f");

describe("parseLog", () => {
	it("reads each NUL-separated commit into hash, short hash, author, time in seconds and subject", () => {
		const out = `${record(HASH, "aaaaaaa", "Ana Lima", "1795794206", "Plan: the week")}\0${record("b".repeat(40), "bbbbbbb", "Bo", "1795794200", "First")}\0`;
		expect(parseLog(out)).toEqual([
			{ hash: HASH, shortHash: "aaaaaaa", author: "Ana Lima", time: 1795794206, subject: "Plan: the week" },
			{ hash: "b".repeat(40), shortHash: "bbbbbbb", author: "Bo", time: 1795794200, subject: "First" },
		]);
	});

	it("keeps subjects verbatim: tabs, quotes, separators of other formats", () => {
		const subject = 'Said "hi"\tthen | left; 日本語 ✓';
		expect(parseLog(record(HASH, "aaaaaaa", "Ana", "1", subject))[0].subject).toBe(subject);
	});

	it("drops the newline git may put before a record and the empty end after the last NUL", () => {
		expect(parseLog(`\n${record(HASH, "aaaaaaa", "Ana", "7", "x")}\0\n`).map((c) => c.hash)).toEqual([HASH]);
	});

	it("gives an empty subject for a commit that has none, and no commits for no output", () => {
		expect(parseLog(record(HASH, "aaaaaaa", "Ana", "7", ""))[0].subject).toBe("");
		expect(parseLog(`${record(HASH, "aaaaaaa", "Ana", "7")}\0`)[0].subject).toBe("");
		expect(parseLog("")).toEqual([]);
	});

	it("reads what git prints for LOG_FORMAT, newest first", () => {
		const dir = mkdtempSync(join(tmpdir(), "rb-log-"));
		try {
			git(dir, "init", "--quiet", "--initial-branch=main");
			git(dir, "commit", "--quiet", "--allow-empty", "-m", "First\tnote", "--date=@1795794200 +0000");
			git(dir, "commit", "--quiet", "--allow-empty", "--allow-empty-message", "-m", "", "--date=@1795794300 +0000");
			const commits = parseLog(git(dir, "log", "-z", LOG_FORMAT));
			expect(commits.map(({ subject, author, time }) => ({ subject, author, time }))).toEqual([
				{ subject: "", author: "Vault Tester", time: 1795794300 },
				{ subject: "First\tnote", author: "Vault Tester", time: 1795794200 },
			]);
			expect(commits[0].hash).toBe(git(dir, "rev-parse", "HEAD").trim());
			expect(commits[0].hash.startsWith(commits[0].shortHash)).toBe(true);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
