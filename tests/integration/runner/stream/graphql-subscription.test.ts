import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { GraphQLInt, GraphQLNonNull, GraphQLObjectType, GraphQLSchema } from "graphql";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer } from "ws";
import { parseNote } from "../../../../src/blocks";
import { createEngine } from "../../../../src/runner/engine";
import { createNodeTransport } from "../../../../src/runner/http/node-transport";
import type { StreamRun } from "../../../../src/runner/stream/stream-run";

jest.setTimeout(30_000);

/** A counting subscription: `count(to: n)` yields 1…n, then completes. */
const schema = new GraphQLSchema({
	query: new GraphQLObjectType({ name: "Query", fields: { ok: { type: GraphQLInt, resolve: () => 1 } } }),
	subscription: new GraphQLObjectType({
		name: "Subscription",
		fields: {
			count: {
				type: GraphQLInt,
				args: { to: { type: new GraphQLNonNull(GraphQLInt) } },
				subscribe: async function* (_root: unknown, args: { to: number }) {
					for (let n = 1; n <= args.to; n++) yield { count: n };
				},
			},
		},
	}),
});

let server: Server;
let base: string;
let dispose: () => void | Promise<void>;
beforeAll(async () => {
	server = createServer();
	const wss = new WebSocketServer({ server, path: "/graphql" });
	dispose = useServer({ schema }, wss).dispose;
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
	await dispose();
	await new Promise((resolve) => server.close(resolve));
});

describe("a GRAPHQL subscription over graphql-transport-ws", () => {
	it("subscribes with the block's variables, keeps each result as a message, and ends when the server completes", async () => {
		const transport = createNodeTransport();
		const engine = createEngine({
			transport: () => transport,
			history: () => null,
			environment: () => ({ name: "local", variables: { base, to: "3" }, secretValues: [], secretNames: [], unsetSecretNames: [] }),
			defaultTimeoutMs: () => 5000,
			close: async () => transport.close(),
		});
		const note = parseNote('```http\n# @name counter\nGRAPHQL {{base}}/graphql\n\nsubscription Count($to: Int!) { count(to: $to) }\n\n{"to": {{to}}}\n\n?? messages.count == 3\n?? messages.-1.data $.data.count == 3\n```');
		const [run] = await engine.run("g.md", note, note);
		const r = run.result as StreamRun;
		expect(r).toMatchObject({ kind: "websocket", state: "done", head: { status: 101 }, close: { code: 1000, why: "steps_done" } });
		expect(r.messages.filter((m) => m.direction === "received").map((m) => JSON.parse(m.data) as unknown)).toEqual([{ data: { count: 1 } }, { data: { count: 2 } }, { data: { count: 3 } }]);
		expect(JSON.parse(r.messages[0].data)).toMatchObject({ type: "subscribe", payload: { query: "subscription Count($to: Int!) { count(to: $to) }", variables: { to: 3 } } });
		expect(r.assertions?.map((a) => a.ok)).toEqual([true, true]);
		await engine.close();
	});
});
