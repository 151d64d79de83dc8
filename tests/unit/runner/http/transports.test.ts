import { FetchTransport } from "../../../../src/runner/http/fetch-transport";
import { createNodeTransport } from "../../../../src/runner/http/node-transport";
import { fetchTransportModule, nodeTransportModule } from "../../../../src/runner/http/transports";

describe("the transports, required on first use", () => {
	it("are the modules themselves, not copies", () => {
		expect(nodeTransportModule().createNodeTransport).toBe(createNodeTransport);
		expect(fetchTransportModule().FetchTransport).toBe(FetchTransport);
	});
});
