/**
 * UI strings in English, Spanish and Portuguese (docs/architecture.md), chosen from Obsidian's
 * language setting: the blocks, the settings, the chat panel and the version-control panel all
 * read this one table. One file per locale in ./locales; English is the source of the keys.
 */
import type { ChatFailureCode } from "../chat/failures";
import type { GitFailureCode } from "../vcs";
import { en, type StringKey, type Table } from "./locales/en";
import type * as EnOnUseLocale from "./locales/en-on-use";
import type * as EsLocale from "./locales/es";
import type * as PtLocale from "./locales/pt";

export type { StringKey } from "./locales/en";

/**
 * The other languages, each required when it is picked, and the English texts of the parts
 * compiled on first use, required at the first key the core's en.ts has not: main.js carries them
 * as text modules, so a start compiles only the core's English and the language in use
 * (docs/architecture.md, "Text modules").
 */
/* eslint-disable @typescript-eslint/no-require-imports -- see above */
const OTHER_TABLES: Record<string, () => Table> = {
	es: () => (require("./locales/es") as typeof EsLocale).es,
	pt: () => (require("./locales/pt") as typeof PtLocale).pt,
};
const englishOnUse = () => (require("./locales/en-on-use") as typeof EnOnUseLocale).enOnUse;
/* eslint-enable @typescript-eslint/no-require-imports -- end of the requires above */
const coreEnglish: Partial<Table> = en;
let wholeEnglish: Table | null = null;
/** The language picked; null for English, read from the core's part first. */
let current: Table | null = null;

function english(): Table {
	return (wholeEnglish ??= { ...en, ...englishOnUse() });
}

/** Picks the table for an Obsidian language code ("es", "pt-BR"…); English otherwise. */
export function setLanguage(code: string | null | undefined): void {
	const lang = (code ?? "en").toLowerCase().split(/[-_]/)[0];
	current = Object.prototype.hasOwnProperty.call(OTHER_TABLES, lang) ? OTHER_TABLES[lang]() : null;
}

export function t(key: StringKey, vars: Record<string, string | number> = {}): string {
	const text = current ? current[key] : (coreEnglish[key] ?? english()[key]);
	return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
}

export const LANGUAGES = ["en", ...Object.keys(OTHER_TABLES)];
export function tableFor(code: string): Table {
	return Object.prototype.hasOwnProperty.call(OTHER_TABLES, code) ? OTHER_TABLES[code]() : english();
}

function capitalized<S extends string>(s: S): Capitalize<S> {
	return `${s[0].toUpperCase()}${s.slice(1)}` as Capitalize<S>;
}

/** The version-control panel's text for a git failure code (the core's message stays English). */
export function vcsFailureKey(code: GitFailureCode): StringKey {
	return `vcsErr${capitalized(code)}`;
}

/** The text for a snippet writer's refusal (`ExportError.why`), or null for one without a text here (its English message is shown). */
export function exportWhyKey(why: string): StringKey | null {
	if (!/^[a-z]+(?:_[a-z]+)*$/.test(why)) return null;
	const key = `exportWhy${why.split("_").map(capitalized).join("")}`;
	return Object.prototype.hasOwnProperty.call(english(), key) ? (key as StringKey) : null;
}

/** The chat panel's text for a chat failure code. */
export function chatFailureKey(code: ChatFailureCode): StringKey {
	return `chatErr${capitalized(code)}`;
}
