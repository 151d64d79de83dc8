// The lowest Obsidian version whose APIs the plugin uses, from the `@since` tags of the
// `obsidian` typings (node_modules/obsidian/obsidian.d.ts).
//
//   node scripts/min-app-version.mjs          # the required version and the symbols that need it
//   node scripts/min-app-version.mjs --json   # every use, machine-readable (tests/unit/build/min-app-version.test.ts)
//   node scripts/min-app-version.mjs --check  # exit 1 when manifest.json's minAppVersion is lower
//   (--all lists every symbol; --root DIR analyses another checkout, as the unit test does)
//
// Every identifier of main.ts and src/** is resolved with the TypeScript type checker; a
// symbol counts when all of its declarations are in obsidian.d.ts (so `HTMLElement`, which
// obsidian.d.ts only augments, does not). Its version is the highest `@since` of the
// declaration and of the class or interface declaring it (a member is never older than its
// class). For a call, the overload that the checker picked decides. Not counted: names in
// type positions (annotations, `implements`, `typeof` in a type), imports, and code guarded
// by `requireApiVersion("x.y.z")` (if / ?: / &&) when x.y.z covers the symbol, the way
// `obsidianmd/no-unsupported-api` treats it. Any other runtime feature check still counts:
// the result errs on the high side, never the low one.
import ts from "typescript";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Compares dotted versions numerically ("1.10.0" > "1.9.2"). */
export function compareVersions(a, b) {
	const pa = a.split(".").map(Number);
	const pb = b.split(".").map(Number);
	for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
		const d = (pa[i] ?? 0) - (pb[i] ?? 0);
		if (d !== 0) return d < 0 ? -1 : 1;
	}
	return 0;
}

const maxVersion = (a, b) => (a === null ? b : b === null ? a : compareVersions(a, b) >= 0 ? a : b);

function sourceFiles(root) {
	const out = [join(root, "main.ts")];
	const walk = (dir) => {
		for (const e of readdirSync(dir, { withFileTypes: true })) {
			const p = join(dir, e.name);
			if (e.isDirectory()) walk(p);
			else if (/\.tsx?$/.test(e.name) && !e.name.endsWith(".d.ts")) out.push(p);
		}
	};
	walk(join(root, "src"));
	return out;
}

function sinceOf(node) {
	for (const tag of ts.getJSDocTags(node)) {
		if (tag.tagName.text !== "since") continue;
		const text = typeof tag.comment === "string" ? tag.comment : ts.getTextOfJSDocComment(tag.comment);
		const m = /\d+(\.\d+)+/.exec(text ?? "");
		if (m) return m[0];
	}
	return null;
}

/** `@since` of a declaration, raised to its container's (class, interface, namespace). */
function declarationSince(decl) {
	let v = sinceOf(decl);
	for (let p = decl.parent; p && !ts.isSourceFile(p); p = p.parent) {
		if (ts.isClassDeclaration(p) || ts.isInterfaceDeclaration(p) || ts.isModuleDeclaration(p)) v = maxVersion(v, sinceOf(p));
	}
	return v;
}

function qualifiedName(decl, name) {
	const parent = decl.parent;
	if ((ts.isClassDeclaration(parent) || ts.isInterfaceDeclaration(parent)) && parent.name) return `${parent.name.text}.${name}`;
	return name;
}

/** True when the identifier is only a type (annotation, implements, type query, import binding). */
function isTypeOrImportPosition(node) {
	for (let n = node.parent, child = node; n; child = n, n = n.parent) {
		if (ts.isImportDeclaration(n) || ts.isImportEqualsDeclaration(n) || ts.isExportDeclaration(n)) return true;
		if (ts.isExpressionWithTypeArguments(n)) {
			// `class X extends Modal` runs Modal; `implements` and interface `extends` do not.
			const clause = n.parent;
			const runtime = ts.isHeritageClause(clause) && clause.token === ts.SyntaxKind.ExtendsKeyword && (ts.isClassDeclaration(clause.parent) || ts.isClassExpression(clause.parent));
			if (!runtime) return true;
			continue;
		}
		if (ts.isTypeNode(n)) return true;
		if (ts.isTypeAliasDeclaration(n) || ts.isInterfaceDeclaration(n)) return true;
		if (ts.isStatement(n) || ts.isSourceFile(n)) return false;
		void child;
	}
	return false;
}

/** The version in `requireApiVersion("x.y.z")` (alone or first in an && chain), or null. */
function guardVersion(expr) {
	if (ts.isParenthesizedExpression(expr)) return guardVersion(expr.expression);
	if (ts.isCallExpression(expr) && ts.isIdentifier(expr.expression) && expr.expression.text === "requireApiVersion") {
		const arg = expr.arguments[0];
		return arg && ts.isStringLiteralLike(arg) ? arg.text : null;
	}
	if (ts.isBinaryExpression(expr) && expr.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken) {
		return maxVersion(guardVersion(expr.left), guardVersion(expr.right));
	}
	return null;
}

/** The highest requireApiVersion guard that encloses the node on its true side. */
function enclosingGuard(node) {
	let best = null;
	for (let child = node, n = node.parent; n; child = n, n = n.parent) {
		if (ts.isIfStatement(n) && child === n.thenStatement) best = maxVersion(best, guardVersion(n.expression));
		else if (ts.isConditionalExpression(n) && child === n.whenTrue) best = maxVersion(best, guardVersion(n.condition));
		else if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken && child === n.right) {
			best = maxVersion(best, guardVersion(n.left));
		}
	}
	return best;
}

/**
 * Every use of a versioned `obsidian` API in main.ts + src/**.
 * @returns {{ obsidianDts: string, required: string | null, uses: { symbol: string, since: string, file: string, line: number, guardedBy: string | null }[] }}
 */
export function analyse(root = resolve(dirname(fileURLToPath(import.meta.url)), "..")) {
	const configPath = join(root, "tsconfig.json");
	const config = ts.parseJsonConfigFileContent(ts.readConfigFile(configPath, ts.sys.readFile).config, ts.sys, root);
	const program = ts.createProgram(sourceFiles(root), { ...config.options, noEmit: true });
	const checker = program.getTypeChecker();
	const obsidianDts = program.getSourceFiles().map((f) => f.fileName).find((f) => /[\\/]node_modules[\\/]obsidian[\\/]obsidian\.d\.ts$/.test(f));
	if (!obsidianDts) throw new Error("min-app-version: node_modules/obsidian/obsidian.d.ts is not part of the program (run npm ci)");
	const inObsidian = (d) => d.getSourceFile().fileName === obsidianDts;

	const uses = [];
	const ours = new Set(sourceFiles(root).map((f) => resolve(f)));
	for (const sf of program.getSourceFiles()) {
		if (!ours.has(resolve(sf.fileName))) continue;
		const visit = (node) => {
			if (ts.isIdentifier(node) && !isTypeOrImportPosition(node)) record(sf, node);
			ts.forEachChild(node, visit);
		};
		visit(sf);
	}

	function record(sf, id) {
		let symbol = checker.getSymbolAtLocation(id);
		if (!symbol) return;
		if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
		let decls = symbol.declarations ?? [];
		if (decls.length === 0 || !decls.every(inObsidian)) return;
		// A call: the overload the checker resolved, when it is one of ours.
		const callee = ts.isPropertyAccessExpression(id.parent) && id.parent.name === id ? id.parent : id;
		const call = callee.parent;
		if ((ts.isCallExpression(call) || ts.isNewExpression(call)) && call.expression === callee) {
			const decl = checker.getResolvedSignature(call)?.declaration;
			if (decl && decls.includes(decl)) decls = [decl];
		}
		// Several declarations left (overloads, merged interfaces): the oldest one may be the one used.
		let since = null;
		for (const d of decls) {
			const v = declarationSince(d);
			if (v === null) return; // one declaration is unversioned: available since forever
			since = since === null || compareVersions(v, since) < 0 ? v : since;
		}
		if (since === null) return;
		const { line } = sf.getLineAndCharacterOfPosition(id.getStart(sf));
		const guard = enclosingGuard(id);
		uses.push({
			symbol: qualifiedName(decls[0], symbol.getName()),
			since,
			file: relative(root, sf.fileName).split("\\").join("/"),
			line: line + 1,
			guardedBy: guard !== null && compareVersions(guard, since) >= 0 ? guard : null,
		});
	}

	let required = null;
	for (const u of uses) if (!u.guardedBy) required = maxVersion(required, u.since);
	return { obsidianDts: relative(root, obsidianDts), required, uses };
}

function main(argv) {
	const r = argv.indexOf("--root");
	const root = r >= 0 ? resolve(argv[r + 1]) : resolve(dirname(fileURLToPath(import.meta.url)), "..");
	const result = analyse(root);
	if (argv.includes("--json")) {
		process.stdout.write(JSON.stringify(result, null, 2) + "\n");
		return 0;
	}
	const manifest = JSON.parse(readFileSync(join(root, "manifest.json"), "utf8"));
	const bySymbol = new Map();
	for (const u of result.uses) {
		if (u.guardedBy) continue;
		const e = bySymbol.get(u.symbol) ?? { since: u.since, at: [] };
		e.at.push(`${u.file}:${u.line}`);
		bySymbol.set(u.symbol, e);
	}
	const rows = [...bySymbol.entries()].sort((a, b) => compareVersions(b[1].since, a[1].since) || a[0].localeCompare(b[0]));
	console.log(`Obsidian APIs with @since used by main.ts + src/** (from ${result.obsidianDts}):`);
	for (const [symbol, e] of rows.slice(0, argv.includes("--all") ? rows.length : 15)) {
		console.log(`  ${e.since.padEnd(8)} ${symbol}  (${e.at.slice(0, 3).join(", ")}${e.at.length > 3 ? `, +${e.at.length - 3}` : ""})`);
	}
	if (rows.length > 15 && !argv.includes("--all")) console.log(`  … ${rows.length - 15} more (--all)`);
	const guarded = result.uses.filter((u) => u.guardedBy);
	if (guarded.length) console.log(`Behind requireApiVersion (not counted): ${guarded.map((u) => `${u.symbol} ${u.since} at ${u.file}:${u.line}`).join("; ")}`);
	console.log(`Required minAppVersion: ${result.required ?? "(none)"}; manifest.json says ${manifest.minAppVersion}.`);
	if (argv.includes("--check") && result.required && compareVersions(manifest.minAppVersion, result.required) < 0) {
		console.error(`manifest.json minAppVersion ${manifest.minAppVersion} is lower than ${result.required}, which these need: ${rows.filter(([, e]) => compareVersions(e.since, manifest.minAppVersion) > 0).map(([s, e]) => `${s} (${e.since})`).join(", ")}`);
		return 1;
	}
	return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	process.exitCode = main(process.argv.slice(2));
}
