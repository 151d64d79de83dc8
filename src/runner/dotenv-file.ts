/**
 * `{{$dotenv NAME}}` (REST Client): the values of the `.env` file beside the note, read by the
 * host when a run of the note uses one (EnginePorts.dotenv). The file is read the way the
 * `dotenv` package documents it: `KEY=value` lines, an optional `export `, `#` comments (a `#`
 * ends an unquoted value), single quotes kept as written, double quotes with `\n` escapes, any of
 * the three quotes spanning lines and holding its own quote escaped; a later line of a key wins. The package itself is not bundled: it
 * reads files through Node's `fs` at load, which Obsidian mobile does not have.
 */

const LINE = /^[ \t]*(?:export[ \t]+)?([\w.-]+)[ \t]*[=:][ \t]*(.*)$/;

/** Whether a reference is `{{$dotenv …}}`: its value is masked where the request is shown, as a secret's. */
export const isDotenvReference = (inner: string): boolean => /^\s*\$dotenv\b/.test(inner);

/** Whether any block of the note reads the `.env` file: the host reads it only then. */
export function readsDotenv(note: ReadonlyArray<{ references: ReadonlyArray<{ inner: string }> }>): boolean {
	return note.some((b) => b.references.some((r) => isDotenvReference(r.inner)));
}

export function parseDotenv(text: string): Record<string, string> {
	const values: Record<string, string> = {};
	const lines = text.replace(/\r\n?/g, "\n").split("\n");
	for (let i = 0; i < lines.length; i++) {
		const m = LINE.exec(lines[i]);
		if (!m) continue;
		let value = m[2];
		const quote = value[0];
		if (quote === '"' || quote === "'" || quote === "`") {
			// A quoted value runs to its closing quote, on a later line if need be; unclosed, it is the line as written.
			let body = value.slice(1);
			let j = i;
			while (closing(body, quote) === -1 && j + 1 < lines.length) body += `\n${lines[++j]}`;
			const end = closing(body, quote);
			if (end === -1) value = value.trim();
			else {
				i = j;
				value = body.slice(0, end);
				if (quote === '"') value = value.replace(/\\n/g, "\n").replace(/\\r/g, "\r");
			}
		} else value = value.replace(/#.*$/, "").trim();
		values[m[1]] = value;
	}
	return values;
}

/** Where a quoted value ends: its quote, not one escaped with a backslash; -1 while it goes on. */
function closing(body: string, quote: string): number {
	for (let k = body.indexOf(quote); k !== -1; k = body.indexOf(quote, k + 1)) if (body[k - 1] !== "\\") return k;
	return -1;
}
