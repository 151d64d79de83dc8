/**
 * The public suffix list (tldts, its own text module: esbuild.config.mjs, `lazyTldts`) is evaluated
 * only when tough-cookie asks for a public suffix: not at start, not for a host-only cookie, but for
 * the first cookie with a Domain attribute.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { launchDesktopHost, run, watchTextModules, type DesktopHost } from "./support/desktop-host";

jest.setTimeout(30_000);

let host: DesktopHost;
let server: Server;
let url: string;
/** Text modules main.js evaluated, in order. */
let evaluated: string[];

beforeAll(async () => {
	server = createServer((req, res) => {
		// A Domain attribute is what makes tough-cookie check the domain against the public suffix list.
		res.setHeader("Set-Cookie", req.url === "/domain" ? "wide=2; Domain=127.0.0.1; Path=/" : "host=1; Path=/");
		res.end("ok");
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	host = await launchDesktopHost();
	evaluated = watchTextModules(host);
});

afterAll(async () => {
	await host?.close();
	await new Promise((resolve) => server?.close(resolve));
});

it("evaluates the public suffix list for the first Domain cookie only", async () => {
	await host.loadPlugin();
	expect(evaluated).not.toContain("tldts");
	host.page.renderReading(`\`\`\`http alias=hostonly\nGET ${url}/host-only\n\`\`\`\n\n\`\`\`http alias=domain\nGET ${url}/domain\n\`\`\``, "api/suffix.md");
	await expect(run(host.document, "hostonly")).resolves.toBe("done");
	// The jar came for the host-only cookie, the list did not.
	expect(evaluated).toContain("tough-cookie");
	expect(evaluated).not.toContain("tldts");
	await expect(run(host.document, "domain")).resolves.toBe("done");
	expect(evaluated.filter((m) => m === "tldts")).toHaveLength(1);
});
