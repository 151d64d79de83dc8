/**
 * Maps TOML key paths to where they are written, so errors point at a line and column and
 * the patch writer can change one value in place. It reads the document line by line
 * (tables, dotted and quoted keys, comments) without evaluating values.
 */

/** Where a `key = value` line sits. Lines and columns are 1-based. */
export interface KeyLocation {
	path: string[];
	line: number;
	/** Column of the key's first character. */
	column: number;
	/** Column of the value's first character. */
	valueColumn: number;
	/** 0-based offsets of the value text in the document (without a trailing comment). */
	valueFrom: number;
	valueTo: number;
	/** Offsets of the whole line, including its line break. */
	lineFrom: number;
	lineTo: number;
}

export interface TableLocation {
	path: string[];
	line: number;
	/** Offset of the header line start, and the offset where the table's last key line ends. */
	headerFrom: number;
	headerTo: number;
	lastKeyEnd: number;
	array: boolean;
}

export interface TomlLayout {
	keys: KeyLocation[];
	tables: TableLocation[];
}

/** Splits `a."b.c".'d'` into ["a", "b.c", "d"]. */
export function splitKey(text: string): string[] | null {
	const parts: string[] = [];
	let i = 0;
	const s = text.trim();
	while (i < s.length) {
		while (s[i] === " " || s[i] === "\t") i++;
		let part = "";
		if (s[i] === '"' || s[i] === "'") {
			const q = s[i];
			i++;
			while (i < s.length && s[i] !== q) {
				if (q === '"' && s[i] === "\\" && i + 1 < s.length) {
					const next = s[i + 1];
					part += next === "n" ? "\n" : next === "t" ? "\t" : next;
					i += 2;
					continue;
				}
				part += s[i++];
			}
			if (s[i] !== q) return null;
			i++;
		} else {
			const m = /^[A-Za-z0-9_-]+/.exec(s.slice(i));
			if (!m) return null;
			part = m[0];
			i += part.length;
		}
		parts.push(part);
		while (s[i] === " " || s[i] === "\t") i++;
		if (i < s.length) {
			if (s[i] !== ".") return null;
			i++;
		}
	}
	return parts.length ? parts : null;
}

/** Writes a key part bare when it can be, quoted otherwise (`"block.run"`). */
export function formatKeyPart(part: string): string {
	return /^[A-Za-z0-9_-]+$/.test(part) ? part : JSON.stringify(part);
}

/** Finds where a value ends on its line: before a trailing `# comment` that is not inside a string. */
function valueEnd(line: string, start: number): number {
	let inString: string | null = null;
	for (let i = start; i < line.length; i++) {
		const c = line[i];
		if (inString) {
			if (c === "\\" && inString === '"') i++;
			else if (c === inString) inString = null;
		} else if (c === '"' || c === "'") inString = c;
		else if (c === "#") return line.slice(0, i).trimEnd().length;
	}
	return line.trimEnd().length;
}

/** Finds the `=` of a key line outside quoted key parts. */
function equalsIndex(line: string): number {
	let q: string | null = null;
	for (let i = 0; i < line.length; i++) {
		const c = line[i];
		if (q) {
			if (c === "\\" && q === '"') i++;
			else if (c === q) q = null;
		} else if (c === '"' || c === "'") q = c;
		else if (c === "=") return i;
	}
	return -1;
}

export function layoutOf(text: string): TomlLayout {
	const keys: KeyLocation[] = [];
	const tables: TableLocation[] = [];
	let table: string[] = [];
	let current: TableLocation | null = null;
	let offset = 0;
	let multiline: string | null = null;
	const lines = text.split("\n");
	lines.forEach((raw, idx) => {
		const lineFrom = offset;
		const lineTo = offset + raw.length + (idx < lines.length - 1 ? 1 : 0);
		offset = lineTo;
		const line = raw.replace(/\r$/, "");
		if (multiline) {
			// Inside a multi-line string: only its closing delimiter matters.
			if (line.includes(multiline)) multiline = null;
			return;
		}
		const trimmed = line.trim();
		if (trimmed === "" || trimmed.startsWith("#")) return;
		const header = /^\s*(\[\[?)\s*(.+?)\s*\]\]?\s*(#.*)?$/.exec(line);
		if (header && !line.includes("=")) {
			const path = splitKey(header[2]);
			if (path) {
				table = path;
				current = { path, line: idx + 1, headerFrom: lineFrom, headerTo: lineTo, lastKeyEnd: lineTo, array: header[1] === "[[" };
				tables.push(current);
			}
			return;
		}
		const eq = equalsIndex(line);
		if (eq <= 0) return;
		const keyPath = splitKey(line.slice(0, eq));
		if (!keyPath) return;
		let v = eq + 1;
		while (line[v] === " " || line[v] === "\t") v++;
		const rest = line.slice(v);
		const opener = ['"""', "'''"].find((d) => rest.startsWith(d));
		if (opener && !rest.slice(3).includes(opener)) multiline = opener;
		const end = valueEnd(line, v);
		keys.push({
			path: [...table, ...keyPath],
			line: idx + 1,
			column: line.length - line.trimStart().length + 1,
			valueColumn: v + 1,
			valueFrom: lineFrom + v,
			valueTo: lineFrom + Math.max(v, end),
			lineFrom,
			lineTo,
		});
		if (current) current.lastKeyEnd = lineTo;
	});
	return { keys, tables };
}

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export function findKey(layout: TomlLayout, path: readonly string[]): KeyLocation | undefined {
	return layout.keys.find((k) => same(k.path, path));
}

export function findTable(layout: TomlLayout, path: readonly string[]): TableLocation | undefined {
	return layout.tables.find((t) => same(t.path, path));
}

/** Line and column of a key path for messages: the key itself, else its table, else the first line. */
export function locate(text: string, path: readonly string[]): { line: number; column: number } {
	const layout = layoutOf(text);
	const key = findKey(layout, path);
	if (key) return { line: key.line, column: key.valueColumn };
	for (let n = path.length; n > 0; n--) {
		const t = findTable(layout, path.slice(0, n));
		if (t) return { line: t.line, column: 1 };
	}
	return { line: 1, column: 1 };
}
