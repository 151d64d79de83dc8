import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import * as pg from "pg";
import { createPostgresDriver, scrub } from "../../../../src/runner/db/postgres";
import { refusedPort } from "../../../support/servers";

const select = { text: "SELECT 1", params: [], kind: "select" as const };
const limits = { timeoutMs: 10_000, maxRows: 100 };

/** The startup parameters a PostgreSQL client sends (user, database, options…), from its first message. */
function startupParameters(packet: Buffer): Record<string, string> {
	const fields = packet.subarray(8).toString("utf8").split("\0");
	const out: Record<string, string> = {};
	for (let i = 0; i + 1 < fields.length && fields[i] !== ""; i += 2) out[fields[i]] = fields[i + 1];
	return out;
}

/** A backend's ErrorResponse: severity, SQLSTATE and message. */
function errorResponse(code: string, message: string): Buffer {
	const body = Buffer.from(`SFATAL\0C${code}\0M${message}\0\0`, "utf8");
	const head = Buffer.alloc(5);
	head.write("E", 0);
	head.writeInt32BE(body.length + 4, 1);
	return Buffer.concat([head, body]);
}

/** A server on 127.0.0.1 that reads a client's startup message, then answers with `reply` (or hangs up). */
async function fakeBackend(reply: Buffer | null): Promise<{ port: number; startups: Array<Record<string, string>>; close(): Promise<void> }> {
	const startups: Array<Record<string, string>> = [];
	const sockets = new Set<Socket>();
	const server: Server = createServer((socket) => {
		sockets.add(socket);
		socket.once("data", (packet) => {
			startups.push(startupParameters(packet));
			if (reply) socket.end(reply);
			else socket.destroy();
		});
	});
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	return {
		port: (server.address() as AddressInfo).port,
		startups,
		close: () => {
			for (const s of sockets) s.destroy();
			return new Promise((r) => server.close(() => r()));
		},
	};
}

/** A server on 127.0.0.1 that asks each client for its password in clear text and records what it sends. */
async function passwordBackend(): Promise<{ port: number; passwords: string[]; close(): Promise<void> }> {
	const passwords: string[] = [];
	const sockets = new Set<Socket>();
	const askPassword = Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3]); // AuthenticationCleartextPassword
	const server: Server = createServer((socket) => {
		sockets.add(socket);
		socket.once("data", () => {
			socket.once("data", (message) => {
				passwords.push(message.subarray(5, message.indexOf(0, 5)).toString("utf8"));
				socket.end(errorResponse("28P01", "password authentication failed"));
			});
			socket.write(askPassword);
		});
	});
	await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
	return {
		port: (server.address() as AddressInfo).port,
		passwords,
		close: () => {
			for (const s of sockets) s.destroy();
			return new Promise((r) => server.close(() => r()));
		},
	};
}

describe("PostgreSQL through pg", () => {
	it("never shows the password, whatever a message quotes", () => {
		expect(scrub("password s3cret rejected (s3cret)", "s3cret")).toBe("password ••• rejected (•••)");
		expect(scrub("no password here", undefined)).toBe("no password here");
	});

	it("reports a refused connection as a failed connect", async () => {
		const port = await refusedPort();
		const driver = createPostgresDriver(pg, { host: "127.0.0.1", port, readonly: true });
		const out = await driver.run([select], limits);
		expect(out).toMatchObject({ kind: "failed", code: "connect_failed" });
		expect(out.kind === "failed" && out.detail).toContain("ECONNREFUSED");
		await driver.close();
	});

	it("opens its sessions read-only by default, as the user and database of its url, and names itself", async () => {
		const backend = await fakeBackend(null);
		const driver = createPostgresDriver(pg, { url: `postgres://reader@127.0.0.1:${backend.port}/shop`, readonly: true });
		await expect(driver.run([select], limits)).resolves.toMatchObject({ kind: "failed", code: "connect_failed" });
		expect(backend.startups).toEqual([expect.objectContaining({ user: "reader", database: "shop", options: "-c default_transaction_read_only=on", application_name: "runnable-blocks" })]);
		await driver.close();
		await backend.close();
	});

	it("sets no read-only option on a writable connection, and connects as its explicit keys say", async () => {
		const backend = await fakeBackend(null);
		const driver = createPostgresDriver(pg, { host: "127.0.0.1", port: backend.port, user: "writer", database: "other", readonly: false });
		await driver.run([select], limits);
		await driver.close();
		await backend.close();
		expect(backend.startups).toHaveLength(1);
		expect(backend.startups[0]).toMatchObject({ user: "writer", database: "other" });
		expect(backend.startups[0].options).toBeUndefined();
	});

	it("lets explicit keys win over the url, and takes from the url what they leave out", async () => {
		const backend = await fakeBackend(null);
		const elsewhere = await refusedPort();
		const driver = createPostgresDriver(pg, { url: `postgres://reader@127.0.0.1:${elsewhere}/shop`, port: backend.port, database: "other", readonly: true });
		await expect(driver.run([select], limits)).resolves.toMatchObject({ kind: "failed", code: "connect_failed" });
		await driver.close();
		await backend.close();
		expect(backend.startups).toEqual([expect.objectContaining({ user: "reader", database: "other" })]);
	});

	it("connects as the explicit user rather than the url's", async () => {
		const backend = await fakeBackend(null);
		const driver = createPostgresDriver(pg, { url: `postgres://reader@127.0.0.1:${backend.port}/shop`, user: "writer", readonly: true });
		await driver.run([select], limits);
		await driver.close();
		await backend.close();
		expect(backend.startups).toEqual([expect.objectContaining({ user: "writer", database: "shop" })]);
	});

	it("sends the explicit password with a url that has none", async () => {
		const backend = await passwordBackend();
		const driver = createPostgresDriver(pg, { url: `postgres://reader@127.0.0.1:${backend.port}/shop`, password: "s3cret", readonly: true });
		await expect(driver.run([select], limits)).resolves.toMatchObject({ kind: "failed", code: "auth_failed" });
		await driver.close();
		await backend.close();
		expect(backend.passwords).toEqual(["s3cret"]);
	});

	it("tells a refused login apart from an unreachable server, with the password scrubbed", async () => {
		const backend = await fakeBackend(errorResponse("28P01", 'password "hunter2" authentication failed for user "rb"'));
		const driver = createPostgresDriver(pg, { host: "127.0.0.1", port: backend.port, user: "rb", password: "hunter2", readonly: true });
		await expect(driver.run([select], limits)).resolves.toMatchObject({
			kind: "failed",
			code: "auth_failed",
			engineCode: "28P01",
			detail: 'password "•••" authentication failed for user "rb"',
		});
		await driver.close();
		await backend.close();
	});
});
