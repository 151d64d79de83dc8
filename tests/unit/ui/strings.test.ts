import { readdirSync, readFileSync, statSync } from "fs";
import { join, relative } from "path";
import type { ChatFailureCode } from "../../../src/chat/failures";
import { chatFailureKey, exportWhyKey, LANGUAGES, setLanguage, t, tableFor, vcsFailureKey } from "../../../src/ui/strings";
import type { GitFailureCode } from "../../../src/vcs";

const GIT_CODES: GitFailureCode[] = ["git_missing", "not_repository", "no_commits", "no_remote", "no_upstream", "detached_head", "merge_in_progress", "rebase_in_progress", "conflicts", "diverged", "push_rejected", "index_locked", "lock_in_use", "nothing_to_commit", "identity_missing", "local_changes_block", "invalid_branch_name", "branch_exists", "auth_failed", "network_failed", "timeout", "cancelled", "git_failed"];
const CHAT_CODES: ChatFailureCode[] = ["connection_refused", "unauthorized", "model_not_found", "endpoint_not_found", "context_too_long", "rate_limited", "malformed_stream", "interrupted", "timeout", "invalid_url", "server_error"];

function sourceFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : [];
	});
}

describe("UI strings", () => {
	afterEach(() => setLanguage("en"));

	it("follows Obsidian's language code, falling back to English", () => {
		setLanguage("es");
		expect(t("run")).toBe("Ejecutar");
		expect(t("chatStop")).toBe("Detener");
		setLanguage("pt-BR");
		expect(t("stop")).toBe("Parar");
		expect(t("vcsSync")).toBe("Sincronizar");
		expect(t("chatSend")).toBe("Enviar");
		setLanguage("fr");
		expect(t("run")).toBe("Run");
		setLanguage(null);
		expect(t("run")).toBe("Run");
	});

	it("requires a language's texts of the parts compiled on first use only at the first key its core's part has not", () => {
		const required: string[] = [];
		jest.isolateModules(() => {
			for (const part of ["en-on-use", "es", "es-on-use"]) {
				const path = `../../../src/ui/locales/${part}`;
				const actual = jest.requireActual<Record<string, unknown>>(path);
				jest.doMock(path, () => (required.push(part), actual));
			}
			// eslint-disable-next-line @typescript-eslint/no-require-imports -- the module fresh, with the parts above watched
			const strings = require("../../../src/ui/strings") as typeof import("../../../src/ui/strings");
			expect([strings.t("run"), strings.t("cmdRunBlock")]).toEqual(["Run", "Run block"]);
			expect(required).toEqual([]);
			expect(strings.t("chatStop")).toBe("Stop");
			expect(required).toEqual(["en-on-use"]);
			strings.setLanguage("es");
			expect(strings.t("run")).toBe("Ejecutar");
			expect(required).toEqual(["en-on-use", "es"]);
			expect(strings.t("chatStop")).toBe("Detener");
			expect(strings.t("vcsSync")).toBe("Sincronizar");
			expect(required).toEqual(["en-on-use", "es", "es-on-use"]);
		});
	});

	it("fills placeholders and leaves unknown ones visible", () => {
		expect(t("receiving", { size: "3 KiB" })).toBe("Receiving… 3 KiB");
		expect(t("receiving")).toBe("Receiving… {size}");
		expect(t(vcsFailureKey("diverged"), { ahead: 2, behind: 3 })).toBe("Diverged: 2 local, 3 remote commits. Nothing was merged; your commits are safe.");
	});

	it("has a text for every failure code of the chat and version-control panels, in every language", () => {
		for (const lang of LANGUAGES) {
			const table = tableFor(lang);
			for (const code of GIT_CODES) expect([lang, code, table[vcsFailureKey(code)]]).toEqual([lang, code, expect.any(String)]);
			for (const code of CHAT_CODES) expect([lang, code, table[chatFailureKey(code)]]).toEqual([lang, code, expect.any(String)]);
		}
		expect(t(chatFailureKey("connection_refused"), { url: "http://127.0.0.1:11434/v1" })).toBe("Could not connect to http://127.0.0.1:11434/v1. Is Ollama running?");
	});

	it("has a text for every refusal of the snippet writers, in every language, the same as the CLI's English", () => {
		// Each `new ExportError(message, why, vars)` of the core, as written.
		const thrown = sourceFiles(join(__dirname, "../../../src/runner")).flatMap((path) => [...readFileSync(path, "utf8").matchAll(/new ExportError\((.+?), "(\w+)"/g)].map((m) => ({ english: m[1], why: m[2] })));
		expect(thrown.map((x) => x.why).sort()).toEqual(["client_cert_desktop_only", "client_cert_not_found", "client_cert_tool", "file_desktop_only", "file_not_found", "file_references", "header_line_break", "sse_tool", "subscription_tool", "websocat_file", "websocat_nul"]);
		for (const { english, why } of thrown) {
			const key = exportWhyKey(why);
			expect([why, key]).toEqual([why, expect.any(String)]);
			for (const lang of LANGUAGES) expect([lang, why, tableFor(lang)[key as keyof ReturnType<typeof tableFor>]]).toEqual([lang, why, expect.any(String)]);
			// The English table says what the core's message says, its quotes typographic and its values as placeholders.
			const written = english.replace(/^[`"]|[`"]$/g, "").replace(/\$\{c\.path\}/g, "{path}").replace(/\$\{(\w+)\}/g, "{$1}").replace(/"(.*?)"/g, "“$1”");
			expect(tableFor("en")[key as keyof ReturnType<typeof tableFor>]).toBe(written);
		}
		expect(exportWhyKey("no_such_reason")).toBeNull();
		expect(exportWhyKey("")).toBeNull();
		setLanguage("es");
		expect(t(exportWhyKey("sse_tool") as Parameters<typeof t>[0], { tool: "websocat" })).toBe("Un bloque SSE se exporta como curl o .http, no como websocat");
	});

	it("has every key translated, with the same placeholders, in sentence case", () => {
		const en = tableFor("en");
		for (const lang of LANGUAGES) {
			const table = tableFor(lang);
			for (const key of Object.keys(en) as Array<keyof typeof en>) {
				expect(table[key]).toBeTruthy();
				const holes = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
				expect([lang, key, holes(table[key])]).toEqual([lang, key, holes(en[key])]);
				if (lang !== "en") continue;
				// Sentence case: no Title Case Words after the first (acronyms and placeholders aside).
				const words = en[key]
					.replace(/\{\w+\}/g, "")
					.split(/[.:]\s+/)
					.flatMap((sentence) => sentence.split(/\s+/).slice(1));
				const properNames = new Set(["Base64", "cURL", "GraphQL", "Obsidian", "Obsidians", "Node", "Ollama", "ShiftEnter"]);
				expect([key, words.filter((w) => /^[A-Z][a-z]/.test(w) && !properNames.has(w.replace(/[^\w]/g, "")))]).toEqual([key, []]);
			}
		}
	});

	it("has no key that nothing shows: each is named in the source, or made by one of the key makers", () => {
		const root = join(__dirname, "../../../src");
		const source = sourceFiles(root)
			.filter((path) => !relative(root, path).startsWith(join("ui", "locales")))
			.map((path) => readFileSync(path, "utf8"))
			.join("\n");
		// The keys built from a code: vcsFailureKey, chatFailureKey, exportWhyKey (strings.ts);
		// taskKey, groupKey (vcs-view.ts) and actionKey (undo-confirm.ts).
		const made = /^(vcsErr|chatErr|exportWhy|vcsTask|vcsAction:)|^vcs(Staged|Unstaged|Untracked|Conflicted)$/;
		const named = (key: string) => source.includes(`"${key}"`) || new RegExp(`\\b${key}: `).test(source);
		const unshown = Object.keys(tableFor("en")).filter((key) => !made.test(key) && !named(key));
		expect(unshown).toEqual([]);
	});

	it("is the only string table: no other UI module keeps its own texts per language or its own t()", () => {
		const root = join(__dirname, "../../../src/ui");
		const own = sourceFiles(root)
			.filter((path) => !relative(root, path).startsWith("locales") && relative(root, path) !== "strings.ts")
			.filter((path) => /^const (en|es|pt)\b|^\s*(en|es|pt): \{|\.replace\(\/\\\{\(\\w\+\)\\\}\/g/m.test(readFileSync(path, "utf8")));
		expect(own.map((path) => relative(root, path))).toEqual([]);
	});
});
