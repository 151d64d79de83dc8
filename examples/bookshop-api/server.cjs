// The bundled demo API: a small bookshop on 127.0.0.1 that the example vault's notes call.
// No dependencies. Run it alone with `node examples/bookshop-api/serve.mjs [--port N]`,
// or import { startBookshopApi } (the CLI's `demo` bundles it).
"use strict";
const { randomBytes } = require("node:crypto");
const { createServer } = require("node:http");
const { gzipSync } = require("node:zlib");

/** A 16×16 PNG: a small orange square with a darker border, the "cover" of every book. */
const COVER_PNG = Buffer.from(
	"iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAHklEQVR42mNY4CZCEmIA4g89GkSiUQ2jGgZaA0kIAPxafDhbjPEnAAAAAElFTkSuQmCC",
	"base64",
);

function seedBooks() {
	return [
		{ id: 1, title: "Dune", author: "Frank Herbert", year: 1965, price: 9.99 },
		{ id: 2, title: "The Left Hand of Darkness", author: "Ursula K. Le Guin", year: 1969, price: 8.5 },
		{ id: 3, title: "Neuromancer", author: "William Gibson", year: 1984, price: 7.25 },
	];
}

function validateBook(body, partial) {
	const errors = [];
	if (typeof body !== "object" || body === null || Array.isArray(body)) return ["body must be a JSON object"];
	if (!partial || "title" in body) if (typeof body.title !== "string" || !body.title.trim()) errors.push("title must be a non-empty string");
	if (!partial || "author" in body) if (typeof body.author !== "string" || !body.author.trim()) errors.push("author must be a non-empty string");
	if ("year" in body && !Number.isInteger(body.year)) errors.push("year must be an integer");
	if ("price" in body && (typeof body.price !== "number" || body.price < 0)) errors.push("price must be a non-negative number");
	return errors;
}

const xmlEscape = (s) => String(s).replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]);

/** Starts the API on 127.0.0.1 (port 0 = any free port). */
async function startBookshopApi({ port = 0 } = {}) {
	const token = randomBytes(16).toString("hex");
	let books = seedBooks();
	let nextId = 4;
	const sockets = new Set();
	const timers = new Set();

	const send = (req, res, status, body, type = "application/json", extra = {}) => {
		let data = Buffer.isBuffer(body) ? body : Buffer.from(type.startsWith("application/json") ? JSON.stringify(body, null, 2) : String(body));
		const headers = { "Content-Type": type, ...extra };
		if (/\bgzip\b/.test(String(req.headers["accept-encoding"] ?? "")) && data.length > 256 && !type.startsWith("image/")) {
			data = gzipSync(data);
			headers["Content-Encoding"] = "gzip";
		}
		headers["Content-Length"] = String(data.length);
		res.writeHead(status, headers);
		res.end(req.method === "HEAD" ? undefined : data);
	};

	const authorised = (req) => req.headers.authorization === `Bearer ${token}`;

	const handle = (req, res, raw) => {
		const url = new URL(req.url ?? "/", "http://localhost");
		const path = url.pathname;
		// HEAD is GET without a body (send() leaves the body out).
		const method = req.method === "HEAD" ? "GET" : req.method;
		let body = null;
		if (raw.length > 0 && /json/.test(String(req.headers["content-type"] ?? ""))) {
			try {
				body = JSON.parse(raw.toString("utf8"));
			} catch {
				return send(req, res, 400, { error: "invalid JSON body" });
			}
		}
		if (req.method === "POST" && path === "/auth/login") {
			if (body?.username === "demo" && body?.password === "demo") {
				return send(req, res, 200, { token, token_type: "Bearer", expires_in: 3600 }, "application/json", {
					"Set-Cookie": [`session=${token.slice(0, 12)}; HttpOnly; Path=/; SameSite=Lax`, "seen_demo=1; Max-Age=86400; Path=/"],
				});
			}
			return send(req, res, 401, { error: "invalid credentials", hint: "use demo / demo" });
		}
		if (method === "GET" && path === "/books.xml") {
			const items = books.map((b) => `  <book id="${b.id}">\n    <title>${xmlEscape(b.title)}</title>\n    <author>${xmlEscape(b.author)}</author>\n    <year>${b.year}</year>\n  </book>`).join("\n");
			return send(req, res, 200, `<?xml version="1.0" encoding="UTF-8"?>\n<books>\n${items}\n</books>\n`, "application/xml; charset=utf-8");
		}
		if (method === "GET" && path === "/cover.png") return send(req, res, 200, COVER_PNG, "image/png");
		if (method === "GET" && path === "/about.html") {
			return send(req, res, 200, "<!doctype html>\n<html><head><title>Bookshop</title></head><body><h1>The demo bookshop</h1><p>Shown as text, never rendered.</p><script>alert('never runs')</script></body></html>\n", "text/html; charset=utf-8");
		}
		if (method === "GET" && path === "/slow") {
			const ms = Math.min(Number(url.searchParams.get("ms") ?? 2000), 30_000);
			const t = setTimeout(() => {
				timers.delete(t);
				if (!res.destroyed) send(req, res, 200, { waited_ms: ms });
			}, ms);
			timers.add(t);
			return;
		}
		if (method === "GET" && path === "/stream") {
			const chunks = Math.min(Number(url.searchParams.get("chunks") ?? 5), 1000);
			const delay = Math.min(Number(url.searchParams.get("delay") ?? 200), 5000);
			res.writeHead(200, { "Content-Type": "application/x-ndjson" });
			let i = 0;
			const tick = () => {
				if (res.destroyed) return;
				if (i >= chunks) return res.end();
				res.write(JSON.stringify({ seq: ++i, at: new Date().toISOString() }) + "\n");
				const t = setTimeout(() => {
					timers.delete(t);
					tick();
				}, delay);
				timers.add(t);
			};
			return tick();
		}
		if (method === "GET" && path === "/search") {
			return send(req, res, 200, { query: Object.fromEntries(url.searchParams), results: books.filter((b) => b.title.toLowerCase().includes(String(url.searchParams.get("q") ?? "").toLowerCase())) });
		}
		if (method === "GET" && path === "/headers") {
			const pairs = [];
			for (let i = 0; i < req.rawHeaders.length; i += 2) pairs.push([req.rawHeaders[i], req.rawHeaders[i + 1]]);
			return send(req, res, 200, { headers: pairs });
		}
		if (req.method === "OPTIONS") {
			res.writeHead(204, { Allow: "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS" });
			return res.end();
		}
		if (path === "/me" || path === "/books" || path.startsWith("/books/")) {
			if (!authorised(req)) return send(req, res, 401, { error: "missing or invalid bearer token" }, "application/json", { "WWW-Authenticate": 'Bearer realm="bookshop"' });
			if (path === "/me" && method === "GET") return send(req, res, 200, { username: "demo", roles: ["reader", "editor"] });
			if (path === "/books" && method === "GET") return send(req, res, 200, { count: books.length, books });
			if (path === "/books" && req.method === "POST") {
				const errors = validateBook(body, false);
				if (errors.length) return send(req, res, 422, { errors });
				const book = { id: nextId++, title: body.title, author: body.author, year: body.year ?? null, price: body.price ?? null };
				books.push(book);
				return send(req, res, 201, book, "application/json", { Location: `/books/${book.id}` });
			}
			const id = Number(path.slice("/books/".length));
			const book = books.find((b) => b.id === id);
			if (!book) return send(req, res, 404, { error: `no book ${path.slice(7)}` });
			if (method === "GET") return send(req, res, 200, book);
			if (req.method === "PUT" || req.method === "PATCH") {
				const errors = validateBook(body, req.method === "PATCH");
				if (errors.length) return send(req, res, 422, { errors });
				const updated = req.method === "PUT" ? { id, year: null, price: null, ...body } : { ...book, ...body, id };
				books = books.map((b) => (b.id === id ? updated : b));
				return send(req, res, 200, updated);
			}
			if (req.method === "DELETE") {
				books = books.filter((b) => b.id !== id);
				res.writeHead(204);
				return res.end();
			}
			return send(req, res, 405, { error: `${req.method} is not allowed here` });
		}
		return send(req, res, 404, { error: `no route ${req.method} ${path}` });
	};

	const server = createServer((req, res) => {
		const chunks = [];
		req.on("data", (c) => chunks.push(c));
		req.on("end", () => handle(req, res, Buffer.concat(chunks)));
	});
	server.on("connection", (s) => {
		sockets.add(s);
		s.on("close", () => sockets.delete(s));
	});
	await new Promise((resolve, reject) => {
		server.once("error", reject);
		server.listen(port, "127.0.0.1", resolve);
	});
	const actual = server.address().port;
	return {
		url: `http://127.0.0.1:${actual}`,
		port: actual,
		close: async () => {
			for (const t of timers) clearTimeout(t);
			for (const s of sockets) s.destroy();
			await new Promise((r) => server.close(r));
		},
	};
}

module.exports = { startBookshopApi };
