// `node scripts/interop-corpus.mjs [CORPUS_DIR]`: turns the `.http` interop corpus (the peers'
// own test files and doc examples, ../shared/interop-corpus with SOURCES.json naming each file's
// origin) into tests/interop/corpus.json, the cases of the conformance suite
// (tests/interop/conformance.test.ts).
//
// For every distinct request of the corpus it records the oracle, httpyac 6:
// - its parse (method, URL, headers and body as written) — the request the peers read;
// - the bytes it sends (method, target, headers, body) to a recording server on 127.0.0.1, or
//   why it could not send.
// Hosts are rewritten to the recording server (`localize`) in the text both tools read, so the
// comparison never leaves the machine; `__PORT__` stands for the server's port.
// httpyac is installed on demand into bench/.cache (git-ignored), as tests/support/httpyac.ts does.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as http from "node:http";
import { createRequire } from "node:module";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CORPUS = resolve(process.argv[2] ?? join(ROOT, "..", "shared", "interop-corpus"));
const OUT = join(ROOT, "tests", "interop", "corpus.json");
const PORT = "__PORT__";
const SEND_TIMEOUT_MS = 10_000;
/** Stand-ins for the files the peers' requests read (`< ../assets/sample.pdf`), by name: the corpus holds only `.http` text. */
const FIXTURES = join(ROOT, "tests", "interop", "files");
/** Where each corpus file sits below the temporary root, deep enough that `../../assets` stays inside it. */
const LAYOUT = "x/y";

/** `< path` lines of a request, with `{{name}}` taken from the file's `@name = value` lines. */
function filePaths(regionText, fileText) {
	const vars = new Map([...fileText.matchAll(/^[ \t]*@([A-Za-z_][A-Za-z0-9_.-]*)[ \t]*=[ \t]?(.*)$/gm)].map((m) => [m[1], m[2].trim()]));
	return [...regionText.matchAll(/^[ \t]*<(?:@[A-Za-z0-9_-]*)?[ \t]+(\S.*?)[ \t]*$/gm)]
		.map((m) => m[1])
		.filter((f) => !f.startsWith("{%"))
		.map((f) => f.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/g, (all, name) => vars.get(name) ?? all));
}

/**
 * Puts a fixture (same name) wherever a request reads a file the corpus lacks, when that place is
 * below `root`; returns the placements (root-relative, forward slashes) for the suite to repeat.
 */
function placeFixtures(root, filePath, paths) {
	const placed = [];
	for (const p of paths) {
		if (p.includes("{{") || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith("/")) continue;
		const at = resolve(dirname(filePath), p);
		const rel = relative(root, at);
		if (rel.startsWith("..") || existsSync(at) || !existsSync(join(FIXTURES, basename(at)))) continue;
		mkdirSync(dirname(at), { recursive: true });
		copyFileSync(join(FIXTURES, basename(at)), at);
		placed.push({ at: rel.split(sep).join("/"), from: basename(at) });
	}
	return placed;
}

function loadHttpyac() {
	const dir = join(ROOT, "bench", ".cache", "httpyac");
	const main = join(dir, "node_modules", "httpyac");
	if (!existsSync(main)) {
		mkdirSync(dir, { recursive: true });
		execFileSync("npm", ["install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error", "httpyac@6"], { stdio: "inherit" });
	}
	return createRequire(join(dir, "package.json"))("httpyac");
}

const METHOD_WORD = /^[ \t]*([A-Za-z][A-Za-z-]*)[ \t]+/;
const HOSTNAME = /(?:localhost|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})(?::\d+)?/;
const HOST_START = new RegExp(`^${HOSTNAME.source}(?=/|[ \\t]|$)`);

/**
 * The text with every literal host sent to the recording server: absolute http(s) URLs, `Host:`
 * headers, `@x = host` variables and scheme-less request lines. Written references (`{{host}}`)
 * are left as they are: the variables they name are rewritten where they are defined.
 */
export function localize(text) {
	const local = `127.0.0.1:${PORT}`;
	return text
		.split("\n")
		.map((line) => {
			let out = line.replace(new RegExp(`\\bhttps?://(?:${HOSTNAME.source}|\\[[0-9a-fA-F:]+\\](?::\\d+)?|\\d+\\.\\d+\\.\\d+\\.\\d+(?::\\d+)?)`, "g"), `http://${local}`);
			out = out.replace(/^([ \t]*Host[ \t]*:[ \t]*)(?!.*\{\{)(\S+)/i, `$1${local}`);
			out = out.replace(new RegExp(`^([ \\t]*@[A-Za-z0-9_.-]+[ \\t]*=[ \\t]*)${HOSTNAME.source}(?=/|\\s*$)`), `$1${local}`);
			// Scheme-less request line: `GET example.com/x` or `example.com/x` (not a header, comment or variable).
			if (!/^[ \t]*[A-Za-z0-9_-]+[ \t]*:(?!\d)/.test(out) && !/^[ \t]*[#@/"'{<>?]/.test(out)) {
				const m = METHOD_WORD.exec(out);
				const start = m && !HOST_START.test(out.trimStart()) ? m[0].length : /^[ \t]*/.exec(out)[0].length;
				const host = HOST_START.exec(out.slice(start));
				if (host) out = out.slice(0, start) + local + out.slice(start + host[0].length);
			}
			return out;
		})
		.join("\n");
}

const BASIC_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]);

/** What a request uses, by the categories of issue 14 (several may apply). */
export function featuresOf(text, prelude, request) {
	const f = new Set();
	const all = `${prelude}\n${text}`;
	const lines = text.split(/\r?\n/);
	const reqIdx = lines.findIndex((l) => new RegExp(`^[ \\t]*${request.method}[ \\t]`, "i").test(l) || l.trim().startsWith(request.url.split(/\s/)[0]));
	const head = [];
	for (let i = reqIdx + 1; i >= 1 && i < lines.length && lines[i].trim() !== ""; i++) head.push(lines[i]);
	const url = request.url.trim();
	if (url.startsWith("/")) f.add("origin-form");
	else if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && !url.startsWith("{{")) f.add("scheme-less");
	if (!BASIC_METHODS.has(request.method.toUpperCase())) f.add("extra-method");
	if (/HTTP\/\d/i.test(lines[reqIdx] ?? "") || head.some((l) => /^[ \t]*[/?&].*HTTP\/\d/.test(l))) f.add("http-version");
	if (head.some((l) => /^[ \t]*[?&]/.test(l))) f.add("query-continuation");
	if (head.some((l) => /^[ \t]*\/(?!\/)/.test(l))) f.add("path-continuation");
	if (/^[ \t]*@[A-Za-z0-9_.-]+[ \t]*=/m.test(all)) f.add("file-variables");
	if (/^[ \t]*<@?[ \t]+\S/m.test(text)) f.add("file-body");
	if (/^[ \t]*>>?!?[ \t]/m.test(text) || /^[ \t]*>[ \t]*\{%/m.test(text)) f.add("handler");
	if (/^[ \t]*<[ \t]*\{%/m.test(text)) f.add("pre-request-script");
	if (/x-request-type:[ \t]*graphql/i.test(text) || request.method.toUpperCase() === "GRAPHQL" || /^[ \t]*(query|mutation|subscription|fragment)\b[^\n]*\{/m.test(text)) f.add("graphql");
	if (/^[ \t]*authorization:[ \t]*basic[ \t]+\S+(:|[ \t]+)\S/im.test(text)) f.add("basic-auth");
	if (/^[ \t]*authorization:[ \t]*digest[ \t]/im.test(text)) f.add("digest-auth");
	if (/multipart\/form-data/i.test(text)) f.add("multipart");
	if (/application\/x-www-form-urlencoded/i.test(text)) f.add("form-body");
	if (/^[ \t]*\?\?/m.test(text)) f.add("assertions");
	if (/\{\{\s*\$localDatetime/.test(all)) f.add("localDatetime");
	if (/\{\{\s*\$datetime\s+["']/.test(all)) f.add("datetime-format");
	if (/\{\{\s*\$processEnv/.test(all)) f.add("processEnv");
	if (/\{\{\s*\$dotenv/.test(all)) f.add("dotenv");
	if (/\{\{\s*%/.test(all)) f.add("percent-var");
	if (/\{\{\s*\$(uuid|guid|timestamp|randomInt|isoTimestamp|random\.|datetime|localDatetime)/.test(all)) f.add("dynamic-builtin");
	if (/\{\{\s*[A-Za-z0-9_-]+\.(response|request)\./.test(text)) f.add("alias-reference");
	if (/^[ \t]*(#|\/\/)[ \t]*@(name|no-redirect|no-cookie-jar)\b/m.test(text)) f.add("directives");
	if (f.size === 0) f.add("plain");
	return [...f].sort();
}

/** Requests whose meaning depends on JavaScript the peers run (we never run scripts). */
export function needsScripts(text, prelude) {
	const all = `${prelude}\n${text}`;
	if (/^[ \t]*\{\{[ \t]*$/m.test(all) || /^[ \t]*\{\{[ \t]*\S[^}]*$/m.test(all)) return "script block";
	if (/^[ \t]*<[ \t]*\{%/m.test(all)) return "pre-request script";
	if (/^[ \t]*<[ \t]+\S+\.js[ \t]*$/m.test(all)) return "pre-request script file";
	if (/^[ \t]*(#|\/\/)[ \t]*@(ref|forceRef|import|loop|sleep|jwt|ratelimit|keepStreaming|verbose|debug)\b/m.test(all)) return "script metadata";
	if (/^[ \t]*\?\?[ \t]*js\b/m.test(text)) return "js assertion";
	if (/^[ \t]*(import|run)[ \t]+[#.\w]/m.test(all)) return "kulala import/run of other files";
	if (/\{\{\s*\$(input|pick|password|oauth2|openid|aws|x509|mock|faker|random\.)/.test(all)) return "interactive or scripted variable";
	for (const m of all.matchAll(/\{\{([^}]*)\}\}/g)) {
		const inner = m[1].trim();
		if (inner.startsWith("$") || inner.startsWith("%") || /^[A-Za-z_][A-Za-z0-9_-]*$/.test(inner)) continue;
		if (/^[A-Za-z0-9_-]+\.(response|request)\.(body|headers|status)/.test(inner)) continue;
		return `JavaScript expression {{${inner}}}`;
	}
	return null;
}

function bodySignature(body, text) {
	if (body === undefined || body === null) return { kind: "none" };
	if (typeof body === "string") return { kind: "text", text: body };
	if (Array.isArray(body)) {
		const files = [...text.matchAll(/^[ \t]*(<(?:@[A-Za-z0-9_-]*)?)[ \t]+(\S.*?)[ \t]*$/gm)].filter((m) => !m[2].startsWith("{%")).map((m) => `${m[1]} ${m[2]}`);
		let k = 0;
		return { kind: "parts", parts: body.map((p) => (typeof p === "string" ? p : `\u0000${files[k++] ?? "<?"}`)) };
	}
	return { kind: typeof body };
}

function headerList(headers) {
	const out = [];
	for (const [name, value] of Object.entries(headers ?? {})) {
		for (const v of Array.isArray(value) ? value : [value]) out.push([name, String(v)]);
	}
	return out;
}

async function startRecorder() {
	const requests = [];
	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on("data", (c) => chunks.push(c));
		req.on("end", () => {
			requests.push({ method: req.method, url: req.url, headers: req.rawHeaders, body: Buffer.concat(chunks).toString("base64") });
			res.setHeader("content-type", "application/json");
			res.end(JSON.stringify({ token: "t0ken", id: 1, access_token: "t0ken", data: { id: 1 } }));
		});
	});
	await new Promise((r) => server.listen(0, "127.0.0.1", r));
	return { server, requests, port: server.address().port };
}

function withTimeout(promise, ms) {
	let timer;
	return Promise.race([promise.finally(() => clearTimeout(timer)), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms)))]);
}

async function main() {
	const hy = loadHttpyac();
	hy.cli.initFileProvider();
	// httpyac logs every step to the console; the generator prints only its summary.
	let said = [];
	const quiet = (...args) => said.push(args.map((a) => (a instanceof Error ? a.message : typeof a === "string" ? a : "")).join(" "));
	const log = console.log;
	console.log = console.info = console.debug = quiet;
	console.warn = console.error = (...args) => quiet("!", ...args);
	const sources = JSON.parse(readFileSync(join(CORPUS, "SOURCES.json"), "utf8"));
	const rec = await startRecorder();
	const root = mkdtempSync(join(tmpdir(), "interop-corpus-"));
	const fixtures = [];
	const files = [];
	const cases = [];
	const seen = new Set();
	for (const source of sources) {
		const original = readFileSync(join(CORPUS, source.file), "utf8").replace(/\r\n/g, "\n");
		const text = localize(original);
		const live = text.split(`__PORT__`).join(String(rec.port));
		// The file as if it sat at LAYOUT/<file> below a root that holds the fixtures its requests read.
		const path = join(root, LAYOUT, source.file);
		mkdirSync(dirname(path), { recursive: true });
		fixtures.push(...placeFixtures(root, path, filePaths(text, text)));
		const parsed = await new hy.store.HttpFileStore().parse(path, text, { workingDir: dirname(path) });
		const regions = parsed.httpRegions.map((r) => ({ start: r.symbol.startLine, end: r.symbol.endLine, request: Boolean(r.request) }));
		const fileIndex = files.length;
		files.push({ source: source.source, file: source.file, path: `${LAYOUT}/${source.file}`, origin: `${source.repo}@${source.commit.slice(0, 12)}:${source.path}`, text, regions });
		const lines = text.split("\n");
		const prelude = parsed.httpRegions
			.filter((r) => !r.request)
			.map((r) => lines.slice(r.symbol.startLine, r.symbol.endLine + 1).join("\n"))
			.join("\n");
		const liveFile = await new hy.store.HttpFileStore().parse(path, live, { workingDir: dirname(path) });
		for (let k = 0; k < parsed.httpRegions.length; k++) {
			const region = parsed.httpRegions[k];
			if (!region.request) continue;
			const regionText = lines.slice(region.symbol.startLine, region.symbol.endLine + 1).join("\n");
			const key = createHash("sha256").update(`${prelude}\n\u0000${regionText.replace(/^###.*\n/, "")}`).digest("hex").slice(0, 16);
			if (seen.has(key)) continue;
			seen.add(key);
			const r = region.request;
			// httpyac sends an empty part for a `< file` it cannot find; we refuse to. Such a request
			// is not one httpyac could send as written.
			const missing = filePaths(regionText, text).filter((f) => !existsSync(resolve(dirname(path), f)));
			const before = rec.requests.length;
			let sent = null;
			let sendError = null;
			said = [];
			if (missing.length > 0) sendError = `file missing from the corpus: ${missing.join(", ")}`;
			else try {
				const ok = await withTimeout(hy.send({ httpFile: liveFile, httpRegion: liveFile.httpRegions[k], variables: { host: `http://127.0.0.1:${rec.port}` } }), SEND_TIMEOUT_MS);
				const got = rec.requests.slice(before);
				if (got.length > 0) {
					// The port is the one thing that differs between runs: written as __PORT__ wherever it went.
					const last = got[got.length - 1];
					const unport = (v) => v.split(String(rec.port)).join(PORT);
					const body = Buffer.from(unport(Buffer.from(last.body, "base64").toString("latin1")), "latin1").toString("base64");
					sent = { method: last.method, url: unport(last.url), headers: pairs(last.headers).map(([n, v]) => [n, unport(v)]), body };
				}
				else sendError = (said.find((l) => l.startsWith("!")) ?? said.find((l) => /error|not|fail/i.test(l)) ?? (ok ? "sent nothing" : "httpyac reported a failure")).replace(/^! /, "").slice(0, 200);
			} catch (e) {
				sendError = e instanceof Error ? e.message : String(e);
			}
			cases.push({
				id: key,
				source: source.source,
				file: fileIndex,
				region: k,
				line: region.symbol.startLine + 1,
				features: featuresOf(regionText, prelude, r),
				needsScripts: needsScripts(regionText, prelude),
				peer: { method: r.method.toUpperCase(), url: r.url, headers: headerList(r.headers), body: bodySignature(r.body, regionText) },
				sent,
				sendError,
			});
		}
	}
	rec.server.close();
	rmSync(root, { recursive: true, force: true });
	mkdirSync(dirname(OUT), { recursive: true });
	writeFileSync(OUT, `${JSON.stringify({ generatedBy: "scripts/interop-corpus.mjs", oracle: `httpyac ${hy.version ?? "6"}`, fixtures, files, cases }, null, 1)}\n`);
	const sendable = cases.filter((c) => c.sent).length;
	log(`${cases.length} distinct requests from ${files.length} files; httpyac sent ${sendable}; ${cases.filter((c) => c.needsScripts).length} need scripts → ${OUT}`);
	process.exit(0);
}

function pairs(raw) {
	const out = [];
	for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i], raw[i + 1]]);
	return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
