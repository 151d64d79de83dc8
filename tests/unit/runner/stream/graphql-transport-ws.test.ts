import { connectionInit, onGraphqlFrame } from "../../../../src/runner/stream/graphql-transport-ws";

const operation = JSON.stringify({ query: "subscription { count }", variables: { to: 2 } });

describe("graphql-transport-ws, client side", () => {
	it("inits, subscribes on the ack, answers a ping", () => {
		expect(JSON.parse(connectionInit())).toEqual({ type: "connection_init", payload: {} });
		const ack = onGraphqlFrame('{"type":"connection_ack"}', operation);
		expect(ack.kind).toBe("send");
		if (ack.kind === "send") expect(JSON.parse(ack.frames[0])).toEqual({ id: "1", type: "subscribe", payload: { query: "subscription { count }", variables: { to: 2 } } });
		expect(onGraphqlFrame('{"type":"ping"}', operation)).toEqual({ kind: "send", frames: ['{"type":"pong"}'] });
	});

	it("next is a message, complete ends, error fails, other ids and bad frames are said", () => {
		expect(onGraphqlFrame('{"id":"1","type":"next","payload":{"data":{"count":1}}}', operation)).toEqual({ kind: "next", data: '{"data":{"count":1}}' });
		expect(onGraphqlFrame('{"id":"2","type":"next","payload":{}}', operation)).toEqual({ kind: "ignore" });
		expect(onGraphqlFrame('{"id":"1","type":"complete"}', operation)).toEqual({ kind: "complete" });
		expect(onGraphqlFrame('{"id":"1","type":"error","payload":[{"message":"no"}]}', operation)).toEqual({ kind: "error", detail: '[{"message":"no"}]' });
		const bad = onGraphqlFrame("garbage", operation);
		expect(bad.kind === "error" && bad.detail).toMatch(/not JSON/);
	});
});
