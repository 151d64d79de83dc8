import { rootCertificates } from "node:tls";
import { nodeTlsOptions } from "../../../../src/runner/http/node-tls";

describe("nodeTlsOptions", () => {
	it("adds a server's CA to Node's bundled roots (Node's ca would replace them), the rest as given", () => {
		const options = nodeTlsOptions({ ca: "MY CA", cert: "C", key: "K", passphrase: "p", rejectUnauthorized: false });
		expect(options).toEqual({ cert: "C", key: "K", passphrase: "p", rejectUnauthorized: false, ca: [...rootCertificates, "MY CA"] });
		expect(rootCertificates.length).toBeGreaterThan(10);
		expect(nodeTlsOptions({ rejectUnauthorized: false })).toEqual({ rejectUnauthorized: false });
	});
});
