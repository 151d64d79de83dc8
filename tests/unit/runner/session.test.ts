import { NoteSession, SessionStore } from "../../../src/runner/session";
import type { RunSnapshot } from "../../../src/runner/result";

const running: RunSnapshot = { kind: "http", state: "running", receivedBytes: 0 };
const done: RunSnapshot = { kind: "http", state: "done", receivedBytes: 3 };

describe("session store", () => {
	it("gives every subscriber the current snapshot and each update", () => {
		const s = new NoteSession();
		const a: string[] = [];
		const b: string[] = [];
		const offA = s.subscribe("@x", (snap) => a.push(snap.state));
		s.update("@x", running);
		s.subscribe("@x", (snap) => b.push(snap.state));
		s.update("@x", done);
		offA();
		s.update("@x", running);
		expect(a).toEqual(["idle", "running", "done"]);
		expect(b).toEqual(["running", "done", "running"]);
	});

	it("cancels the running block only, and a new run cancels the previous one", () => {
		const s = new NoteSession();
		const first = s.begin("@x");
		s.update("@x", running);
		const second = s.begin("@x");
		expect(first.signal.aborted).toBe(true);
		expect(s.cancel("@x")).toBe(true);
		expect(second.signal.aborted).toBe(true);
		s.update("@x", done);
		expect(s.cancel("@x")).toBe(false);
	});

	it("cancels all running blocks of a note", () => {
		const s = new NoteSession();
		const c1 = s.begin("#0");
		const c2 = s.begin("#1");
		s.update("#0", running);
		s.update("#1", done);
		expect(s.cancelAll()).toBe(1);
		expect([c1.signal.aborted, c2.signal.aborted]).toEqual([true, false]);
	});

	it("on close (plugin unload) cancels every run and draws no view again, whatever the runs publish after", () => {
		const store = new SessionStore();
		const note = store.note("a.md");
		const seen: string[] = [];
		note.subscribe("@x", (snap) => seen.push(snap.state));
		const c = note.begin("@x");
		note.update("@x", running);
		store.close();
		expect(c.signal.aborted).toBe(true);
		note.update("@x", { kind: "http", state: "cancelled", receivedBytes: 0 });
		expect(seen).toEqual(["idle", "running"]);
		expect(note.snapshot("@x").state).toBe("cancelled");
	});

	it("keeps results for chaining and moves a note's session on rename", () => {
		const store = new SessionStore();
		store.note("a.md").set("login", { kind: "http", state: "done", receivedBytes: 1 });
		store.rename("a.md", "b.md");
		expect(store.note("b.md").get("login")?.state).toBe("done");
		expect(store.note("a.md").get("login")).toBeUndefined();
		expect(store.note("b.md").aliasesWithResults()).toEqual(["login"]);
	});
});
