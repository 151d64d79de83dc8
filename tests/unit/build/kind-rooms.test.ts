/**
 * A block kind lives in its own rooms: shared modules reach it only through the registries, one
 * line per kind (docs/architecture.md, "Adding a block kind"). Checked for the stream kinds, sse
 * and websocket, the newest and the proof that a kind can land that way. The rule, read with
 * TypeScript's own parser over src/ and main.ts, outside the kinds' rooms and the registries:
 *
 * - no `"sse"` / `"websocket"` compared with a `.kind` (`===`, `!==`, a `case` of `switch (x.kind)`),
 *   nor written as the type of a `kind` property (`Extract<NoteBlock, { kind: "sse" }>`);
 * - no import, `export … from` or `require` of a module of their rooms.
 *
 * http is the base kind that many shared modules speak, and db is still named by the editor's SQL
 * features, the chat and the CLI's output, so neither is checked yet.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

const ROOT = join(__dirname, "..", "..", "..");

const STREAM_KINDS: ReadonlySet<string> = new Set(["sse", "websocket"]);

/** The modules that exist only for the stream kinds (paths from the repository root; a trailing `/` is a folder). */
const STREAM_ROOMS = [
	"src/blocks/sse.ts",
	"src/blocks/websocket.ts",
	"src/blocks/stream-request.ts",
	"src/runner/stream/",
	"src/runner/snippets/stream-snippets.ts",
	"src/ui/stream/",
	"src/cli/stream-output.ts",
];

/** The registries, where each kind is one line; and the language room's barrel, which re-exports every module of src/blocks. */
const REGISTRIES: ReadonlySet<string> = new Set([
	"src/blocks/kinds.ts",
	"src/blocks/index.ts",
	"src/runner/block-runners.ts",
	"src/ui/block-renderers.ts",
	"src/cli/kind-outputs.ts",
]);

const inStreamRoom = (path: string): boolean => STREAM_ROOMS.some((room) => (room.endsWith("/") ? path.startsWith(room) : path === room));

function sources(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
}

const repoPath = (file: string): string => relative(ROOT, file).split(sep).join("/");

/** `x.kind`, `x?.kind`, `(x).kind`. */
function isKindAccess(node: ts.Expression): boolean {
	const e = ts.isParenthesizedExpression(node) ? node.expression : node;
	return ts.isPropertyAccessExpression(e) && e.name.text === "kind";
}

const isStreamLiteral = (node: ts.Node): node is ts.StringLiteral => ts.isStringLiteral(node) && STREAM_KINDS.has(node.text);

const COMPARISONS = new Set([ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken]);

/** Where a module speaks of a stream kind: `line: what`, 1-based lines. */
export function streamNamings(path: string, text: string): string[] {
	const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
	const found: string[] = [];
	const at = (node: ts.Node, what: string) => found.push(`${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}: ${what}`);
	const imports = (node: ts.Node, specifier: ts.Expression | undefined) => {
		if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith(".")) return;
		const target = repoPath(resolve(dirname(join(ROOT, path)), specifier.text));
		if (inStreamRoom(`${target}.ts`) || inStreamRoom(`${target}/`)) at(node, `imports ${specifier.text}`);
	};
	const visit = (node: ts.Node): void => {
		if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) imports(node, node.moduleSpecifier);
		else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "require") imports(node, node.arguments[0]);
		else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) imports(node, node.argument.literal);
		else if (ts.isBinaryExpression(node) && COMPARISONS.has(node.operatorToken.kind)) {
			const literal = [node.left, node.right].find(isStreamLiteral);
			if (literal && (isKindAccess(node.left) || isKindAccess(node.right))) at(node, `compares .kind with "${literal.text}"`);
		} else if (ts.isCaseClause(node) && isStreamLiteral(node.expression) && ts.isSwitchStatement(node.parent.parent) && isKindAccess(node.parent.parent.expression)) {
			at(node, `case "${node.expression.text}" of a switch on .kind`);
		} else if (ts.isPropertySignature(node) && ts.isIdentifier(node.name) && node.name.text === "kind" && node.type) {
			const literals: string[] = [];
			const collect = (t: ts.Node): void => {
				if (ts.isLiteralTypeNode(t) && isStreamLiteral(t.literal)) literals.push(t.literal.text);
				ts.forEachChild(t, collect);
			};
			collect(node.type);
			if (literals.length > 0) at(node, `a kind typed "${literals.join('" | "')}"`);
		}
		ts.forEachChild(node, visit);
	};
	visit(file);
	return found;
}

/** Every shared module that names a stream kind, with where. */
function crossings(): Map<string, string[]> {
	const out = new Map<string, string[]>();
	for (const file of [...sources(join(ROOT, "src")), join(ROOT, "main.ts")]) {
		const path = repoPath(file);
		if (inStreamRoom(path) || REGISTRIES.has(path)) continue;
		const found = streamNamings(path, readFileSync(file, "utf8"));
		if (found.length > 0) out.set(path, found);
	}
	return out;
}

describe("the stream kinds' rooms", () => {
	it("no shared module names sse or websocket but through a registry line", () => {
		const unexpected = [...crossings()].map(([path, found]) => `${path}\n  ${found.join("\n  ")}`);
		expect(unexpected).toEqual([]);
	});

	describe("what counts as naming a stream kind", () => {
		it.each([
			['if (block.kind === "sse") x();', "1: compares .kind with \"sse\""],
			['const y = "websocket" !== r?.kind;', "1: compares .kind with \"websocket\""],
			['switch (b.kind) {\n case "websocket": break;\n}', '2: case "websocket" of a switch on .kind'],
			['type T = Extract<NoteBlock, { kind: "http" | "sse" }>;', '1: a kind typed "sse"'],
			['import { isStreamRun } from "../runner/stream/stream-run";', "1: imports ../runner/stream/stream-run"],
			['import type { X } from "./stream-output";', "1: imports ./stream-output"],
			['const m = require("../runner/snippets/stream-snippets");', "1: imports ../runner/snippets/stream-snippets"],
			['export * from "../blocks/websocket";', "1: imports ../blocks/websocket"],
		])("flags %j in src/cli/x.ts", (text, expected) => {
			expect(streamNamings("src/cli/x.ts", text)).toEqual([expected]);
		});

		it.each([
			['if (block.kind === "http") x();'],
			['const p = stream.protocol === "sse";'],
			['import { createSseReader } from "./sse";'],
			['const t = "websocket";'],
		])("leaves %j in src/chat/x.ts alone", (text) => {
			expect(streamNamings("src/chat/x.ts", text)).toEqual([]);
		});
	});
});
