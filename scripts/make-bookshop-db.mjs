// Builds examples/vault/data/bookshop.sqlite from bookshop.sql (the SQL is what the repository
// keeps; the database file is generated). Usage: node scripts/make-bookshop-db.mjs [--force]
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dir = join(root, "examples", "vault", "data");
const target = join(dir, "bookshop.sqlite");
if (existsSync(target) && !process.argv.includes("--force")) process.exit(0);
const initSqlJs = require("sql.js");
const SQL = await initSqlJs();
const db = new SQL.Database();
db.exec(readFileSync(join(dir, "bookshop.sql"), "utf8"));
const tmp = `${target}.${process.pid}.tmp`;
writeFileSync(tmp, db.export());
renameSync(tmp, target);
db.close();
console.log(`wrote ${target}`);
