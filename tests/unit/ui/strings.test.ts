import { LANGUAGES, setLanguage, t, tableFor } from "../../../src/ui/strings";

describe("UI strings", () => {
	afterEach(() => setLanguage("en"));

	it("follows Obsidian's language code, falling back to English", () => {
		setLanguage("es");
		expect(t("run")).toBe("Ejecutar");
		setLanguage("pt-BR");
		expect(t("stop")).toBe("Parar");
		setLanguage("fr");
		expect(t("run")).toBe("Run");
		setLanguage(null);
		expect(t("run")).toBe("Run");
	});

	it("fills placeholders and leaves unknown ones visible", () => {
		expect(t("receiving", { size: "3 KiB" })).toBe("Receiving… 3 KiB");
		expect(t("receiving")).toBe("Receiving… {size}");
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
				const properNames = new Set(["Base64", "cURL", "Obsidian", "Obsidians", "Node"]);
				expect(words.filter((w) => /^[A-Z][a-z]/.test(w) && !properNames.has(w.replace(/[^\w]/g, "")))).toEqual([]);
			}
		}
	});
});
