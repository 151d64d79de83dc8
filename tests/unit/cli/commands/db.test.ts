import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dbCommand, schemaText } from "../../../../src/cli/commands/db";
import { UsageError } from "../../../../src/cli/usage";
import { findVault } from "../../../../src/cli/vault";
import type { SchemaTable } from "../../../../src/runner/db/driver";

describe("schemaText", () => {
	it("writes each table with its columns aligned, and their facts", () => {
		const tables: SchemaTable[] = [
			{
				name: "books",
				schema: "public",
				kind: "table",
				columns: [
					{ name: "id", type: "integer", nullable: false, primaryKey: true },
					{ name: "author_id", type: "int", nullable: true, primaryKey: false, references: "authors.id" },
				],
			},
			{ name: "titles", schema: "shop", kind: "view", columns: [{ name: "title", type: "text", nullable: false, primaryKey: false }] },
		];
		expect(schemaText(tables).split("\n")).toEqual(["table books", "  id         integer  not null, primary key", "  author_id  int      → authors.id", "view shop.titles", "  title  text  not null"]);
	});
});

describe("runnable-blocks db", () => {
	let dir: string;
	beforeAll(() => {
		dir = mkdtempSync(join(tmpdir(), "rb-db-command-"));
		writeFileSync(join(dir, "user.toml"), '[connections.shop]\ntype = "sqlite"\npath = "shop.sqlite"\n');
	});
	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	const run = (sub: string | undefined, connection: string | undefined, config?: string) => dbCommand({ sub, connection, json: false, config, cwd: dir }, () => undefined, () => undefined);

	it("takes only the schema subcommand, with a connection", async () => {
		const usage = new UsageError("db takes a subcommand: runnable-blocks db schema <connection> [--json] [--config user.toml]");
		await expect(run("tables", "shop")).rejects.toThrow(usage);
		await expect(run("schema", undefined)).rejects.toThrow(usage);
	});

	it("names the connections defined, the built-in history included, when it does not know the one asked for", async () => {
		await expect(run("schema", "nope", join(dir, "user.toml"))).rejects.toThrow(new UsageError('no connection "nope" (defined: shop, history)'));
		// Unless the machine's temp folder is inside a vault.
		if (findVault(join(dir, "_")).root === null) await expect(run("schema", "shop")).rejects.toThrow(new UsageError('no connection "shop" (defined: history) (no user.toml found: run inside a vault or pass --config)'));
	});
});

