/** @jest-environment jsdom */
import "../../support/jsdom-codecs";
import { parseNote } from "../../../src/blocks";
import { createEngine, type EnginePorts } from "../../../src/runner/engine";
import { FetchTransport } from "../../../src/runner/http/fetch-transport";
import { prepareRunsWhenIdle } from "../../../src/ui/prepare-runs";

/** An engine whose ports count the transports made (what prepareToRun makes besides loading code). */
function countingEngine() {
	const counts = { transports: 0 };
	const ports: EnginePorts = {
		transport: () => {
			counts.transports++;
			return new FetchTransport();
		},
		history: () => null,
		environment: () => ({ name: "local", variables: {}, secretValues: [], secretNames: [], unsetSecretNames: [] }),
		defaultTimeoutMs: () => 1000,
	};
	return { engine: createEngine(ports), counts };
}

const [http, textdiff, db] = parseNote("```http\nGET https://x.test/\n```\n\n```textdiff\na\n=== right ===\nb\n```\n\n```db\nSELECT 1\n```\n");
const [secondHttp] = parseNote("```http\nPOST https://x.test/two\n```\n");

afterEach(() => {
	jest.useRealTimers();
	delete (window as Partial<Window>).requestIdleCallback;
});

describe("preparing runs when a runnable block is on screen", () => {
	it("prepares in a later idle moment, once per kind, and never for a block that does not run", () => {
		jest.useFakeTimers();
		const { engine, counts } = countingEngine();
		prepareRunsWhenIdle(engine, textdiff);
		// A db block's kind is prepared, but it sends through no HTTP transport: none is made for it.
		prepareRunsWhenIdle(engine, db);
		jest.runAllTimers();
		expect(counts.transports).toBe(0);
		prepareRunsWhenIdle(engine, http);
		prepareRunsWhenIdle(engine, secondHttp);
		expect(counts.transports).toBe(0);
		jest.runAllTimers();
		expect(counts.transports).toBe(1);
		// Another engine (the plugin enabled again) prepares its own.
		const other = countingEngine();
		prepareRunsWhenIdle(other.engine, http);
		jest.runAllTimers();
		expect(other.counts.transports).toBe(1);
	});

	it("waits for the page's idle callback where the runtime has one", () => {
		const idle: Array<() => void> = [];
		window.requestIdleCallback = (cb: IdleRequestCallback) => idle.push(() => cb({ didTimeout: false, timeRemaining: () => 10 }));
		const { engine, counts } = countingEngine();
		prepareRunsWhenIdle(engine, http);
		expect(idle).toHaveLength(1);
		expect(counts.transports).toBe(0);
		idle[0]();
		expect(counts.transports).toBe(1);
	});
});
