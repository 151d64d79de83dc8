import { createServer, type AddressInfo, type Socket } from "node:net";
import * as mysql from "mysql2/promise";
import { createMysqlDriver } from "../../../../src/runner/db/mysql";
import { refusedPort } from "../../../support/servers";

const select = { text: "SELECT 1", params: [], kind: "select" as const };
const limits = { timeoutMs: 10_000, maxRows: 100 };

/** A server on 127.0.0.1 that counts the connections it gets and hangs up on each (no handshake). */
async function hangUpServer(): Promise<{ port: number; connections(): number; close(): Promise<void> }> {
	let count = 0;
	const sockets = new Set<Socket>();
	const server = createServer((socket) => {
		count++;
		sockets.add(socket);
		socket.destroy();
	});
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	return {
		port: (server.address() as AddressInfo).port,
		connections: () => count,
		close: () => new Promise((r) => server.close(() => r())),
	};
}

/** A server on 127.0.0.1 that answers each connection with an error packet instead of its handshake, as a server refusing a host does. */
async function refusingServer(errno: number, message: string): Promise<{ port: number; close(): Promise<void> }> {
	const server = createServer((socket) => {
		const payload = Buffer.concat([Buffer.from([0xff, errno & 0xff, errno >> 8]), Buffer.from(message)]);
		const head = Buffer.from([payload.length & 0xff, (payload.length >> 8) & 0xff, payload.length >> 16, 0]);
		socket.end(Buffer.concat([head, payload]));
	});
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	return { port: (server.address() as AddressInfo).port, close: () => new Promise((r) => server.close(() => r())) };
}

describe("MySQL and MariaDB through mysql2", () => {
	it("shows a server error by mysql2's name for it, and by its number when mysql2 has no name", async () => {
		for (const [errno, shown] of [[1129, "ER_HOST_IS_BLOCKED"], [9999, "errno 9999"]] as const) {
			const server = await refusingServer(errno, "not from this host");
			const driver = createMysqlDriver(mysql, { host: "127.0.0.1", port: server.port, readonly: true });
			const out = await driver.run([select], limits);
			expect(out).toMatchObject({ kind: "failed", code: "connect_failed", engineCode: shown });
			expect((out as { detail?: string }).detail).toContain("not from this host");
			await driver.close();
			await server.close();
		}
	});

	it("reports a refused connection as a failed connect", async () => {
		const port = await refusedPort();
		const driver = createMysqlDriver(mysql, { host: "127.0.0.1", port, readonly: true });
		await expect(driver.run([select], limits)).resolves.toMatchObject({ kind: "failed", code: "connect_failed", engineCode: "ECONNREFUSED" });
		await driver.close();
	});

	it("connects to the host and port of its url when no explicit key says otherwise", async () => {
		const server = await hangUpServer();
		const driver = createMysqlDriver(mysql, { url: `mysql://reader@127.0.0.1:${server.port}/shop`, readonly: true });
		await expect(driver.run([select], limits)).resolves.toMatchObject({ kind: "failed", code: "connect_failed" });
		await driver.close();
		await server.close();
		expect(server.connections()).toBe(1);
	});

	it("lets an explicit port win over the url's", async () => {
		const server = await hangUpServer();
		const refused = await refusedPort();
		const driver = createMysqlDriver(mysql, { url: `mysql://reader@127.0.0.1:${refused}/shop`, port: server.port, readonly: true });
		await driver.run([select], limits);
		await driver.close();
		await server.close();
		expect(server.connections()).toBe(1);
	});
});
