import { describeConnection, HISTORY_CONNECTION, withBuiltInConnections } from "../../../src/settings/connections";
import { formatProblem, parseSettings } from "../../../src/settings/user-settings";

const parse = (text: string) => {
	const r = parseSettings(text);
	if (!r.ok) throw new Error(r.errors.map(formatProblem).join("\n"));
	return r;
};

describe("[connections.<name>]", () => {
	it("reads a postgres connection with a secret password, ssl and limits", () => {
		const r = parse(`[connections.pg]
type = "postgres"
host = "127.0.0.1"
port = 5432
database = "shop"
user = "dev"
password = { secret = "pg-dev-password" }
ssl = { reject_unauthorized = false }
timeout = 5000
max_rows = 200
`);
		expect(r.errors).toEqual([]);
		expect(r.warnings).toEqual([]);
		expect(r.settings.connections.pg).toEqual({
			type: "postgres",
			host: "127.0.0.1",
			port: 5432,
			database: "shop",
			user: "dev",
			password: { secret: "pg-dev-password" },
			ssl: { rejectUnauthorized: false },
			timeout: 5000,
			maxRows: 200,
			readonly: true,
		});
		expect(describeConnection(r.settings.connections.pg)).toBe("postgres · 127.0.0.1:5432/shop");
	});

	it("reads a mysql connection from a url, read-write when it says so", () => {
		const r = parse(`[connections.my]\ntype = "mysql"\nurl = "mysql://dev@db.local:3307/shop"\nreadonly = false\n`);
		expect(r.errors).toEqual([]);
		expect(r.settings.connections.my).toEqual({ type: "mysql", url: "mysql://dev@db.local:3307/shop", readonly: false });
		expect(describeConnection(r.settings.connections.my)).toBe("mysql · db.local:3307/shop");
	});

	it("refuses a literal password without echoing it, at its line and column", () => {
		const r = parse(`[connections.pg]\ntype = "postgres"\nhost = "h"\npassword = "hunter2"\n`);
		expect(r.errors.map(formatProblem)).toEqual(['user.toml:4:12: connections.pg.password: must be a secret reference, password = { secret = "id" }: a password is never written in user.toml']);
		expect(JSON.stringify(r.errors)).not.toContain("hunter2");
		expect(r.settings.connections.pg).toBeUndefined();
	});

	it("refuses a password inside a url, without echoing it", () => {
		const r = parse(`[connections.pg]\ntype = "postgres"\nurl = "postgres://u:hunter2@h/db"\n`);
		expect(r.errors.map((e) => e.key)).toEqual(["connections.pg.url"]);
		expect(JSON.stringify(r.errors)).not.toContain("hunter2");
	});

	it.each([
		[`type = "oracle"\npath = "x"`, "connections.c.type", /must be one of "sqlite", "postgres", "mysql"/],
		[`type = "postgres"`, "connections.c.host", /needs host \(or url\)/],
		[`type = "postgres"\nhost = "h"\nport = 70000`, "connections.c.port", /port number from 1 to 65535/],
		[`type = "postgres"\nhost = "h"\nssl = "yes"`, "connections.c.ssl", /must be true, false or/],
		[`type = "mysql"\nurl = "postgres://h/db"`, "connections.c.url", /mysql:\/\//],
		[`type = "sqlite"\npath = "a.db"\nmax_rows = 0`, "connections.c.max_rows", /positive whole number of rows/],
		[`type = "sqlite"\npath = "a.db"\ntimeout = "fast"`, "connections.c.timeout", /milliseconds/],
		[`type = "sqlite"\npath = "a.db"\nreadonly = "no"`, "connections.c.readonly", /true or false/],
	])("reports %j at %s", (body, key, message) => {
		const r = parse(`[connections.c]\n${body}\n`);
		expect(r.errors.map((e) => e.key)).toEqual([key]);
		expect(r.errors[0].message).toMatch(message);
		expect(r.errors[0].line).toBeGreaterThanOrEqual(1);
		expect(r.settings.connections.c).toBeUndefined();
	});

	it("warns about a key that does not belong to the engine, keeping the connection", () => {
		const r = parse(`[connections.c]\ntype = "sqlite"\npath = "a.db"\nhost = "h"\n`);
		expect(r.warnings.map(formatProblem)).toEqual(['user.toml:4:8: connections.c.host: unknown key "host" for a sqlite connection is kept but ignored']);
		expect(r.settings.connections.c).toEqual({ type: "sqlite", path: "a.db", readonly: true });
	});
});

describe("the built-in history connection", () => {
	it("is reserved: a [connections.history] table is an error at its line, ignored, and the rest still applies", () => {
		const r = parseSettings('[connections.shop]\ntype = "sqlite"\npath = "a.sqlite"\n\n[connections.history]\ntype = "sqlite"\npath = "mine.sqlite"\n');
		expect(r.ok && r.errors.map(formatProblem)).toEqual(['user.toml:5:1: connections.history: "history" is the built-in, read-only connection to run history: give this connection another name']);
		expect(r.ok && Object.keys(r.settings.connections)).toEqual(["shop"]);
	});

	it("follows the user's connections, the same object for the same settings (the SQL editor compares by identity)", () => {
		const user = { shop: { type: "sqlite" as const, path: "a.sqlite", readonly: true } };
		expect(Object.keys(withBuiltInConnections(user))).toEqual(["shop", "history"]);
		expect(withBuiltInConnections(user)).toBe(withBuiltInConnections(user));
		expect(withBuiltInConnections(user).history).toEqual({ type: "sqlite", path: "history.sqlite", readonly: true, builtIn: "history" });
		expect(describeConnection(HISTORY_CONNECTION)).toBe("sqlite · run history (built in, read-only)");
	});
});
