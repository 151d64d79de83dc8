/**
 * UI strings in English, Spanish and Portuguese (docs/architecture.md), chosen from Obsidian's
 * language setting: the blocks, the settings, the chat panel and the version-control panel all
 * read this one table. One file per locale in ./locales; English is the source of the keys.
 */
import type { ChatFailureCode } from "../chat/failures";
import type { GitFailureCode } from "../vcs";
import { en, type CoreTable, type OnUseTable, type StringKey, type Table } from "./locales/en";
import type * as EnOnUseLocale from "./locales/en-on-use";
import type * as EsLocale from "./locales/es";
import type * as EsOnUseLocale from "./locales/es-on-use";
import type * as PtLocale from "./locales/pt";
import type * as PtOnUseLocale from "./locales/pt-on-use";

export type { StringKey } from "./locales/en";

/** A language in its two parts: the texts the core shows, and those of the parts compiled on first use. */
interface Language {
	core(): CoreTable;
	onUse(): OnUseTable;
}

/**
 * Each language's parts are required when first read: the core's part when the language is picked,
 * the other at the first key the core's part has not (the first panel or settings page shown).
 * main.js carries all but the core's English as text modules, so a start compiles only the core's
 * part of the language in use (docs/architecture.md, "Text modules").
 */
/* eslint-disable @typescript-eslint/no-require-imports -- see above */
const LANGUAGE_PARTS: Record<string, Language> = {
	en: { core: () => en, onUse: () => (require("./locales/en-on-use") as typeof EnOnUseLocale).enOnUse },
	es: { core: () => (require("./locales/es") as typeof EsLocale).es, onUse: () => (require("./locales/es-on-use") as typeof EsOnUseLocale).esOnUse },
	pt: { core: () => (require("./locales/pt") as typeof PtLocale).pt, onUse: () => (require("./locales/pt-on-use") as typeof PtOnUseLocale).ptOnUse },
};
/* eslint-enable @typescript-eslint/no-require-imports -- end of the requires above */

/** The language picked, its core's part read and its whole table once a key asked for it. */
let current = { language: LANGUAGE_PARTS.en, core: en as Partial<Table>, whole: null as Table | null };

function languageOf(code: string): Language {
	return Object.prototype.hasOwnProperty.call(LANGUAGE_PARTS, code) ? LANGUAGE_PARTS[code] : LANGUAGE_PARTS.en;
}

const whole = (language: Language): Table => ({ ...language.core(), ...language.onUse() });

/** Picks the table for an Obsidian language code ("es", "pt-BR"…); English otherwise. */
export function setLanguage(code: string | null | undefined): void {
	const language = languageOf((code ?? "en").toLowerCase().split(/[-_]/)[0]);
	current = { language, core: language.core(), whole: null };
}

export function t(key: StringKey, vars: Record<string, string | number> = {}): string {
	const text = current.core[key] ?? (current.whole ??= whole(current.language))[key];
	return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
}

export const LANGUAGES = Object.keys(LANGUAGE_PARTS);
/** A language's whole table, for a language code as LANGUAGES lists them; English otherwise. */
export function tableFor(code: string): Table {
	return whole(languageOf(code));
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
	// The export reasons are texts of the on-use part (en-on-use.ts): its table is asked, without building the whole one.
	return Object.prototype.hasOwnProperty.call(LANGUAGE_PARTS.en.onUse(), key) ? (key as StringKey) : null;
}

/** The chat panel's text for a chat failure code. */
export function chatFailureKey(code: ChatFailureCode): StringKey {
	return `chatErr${capitalized(code)}`;
}
