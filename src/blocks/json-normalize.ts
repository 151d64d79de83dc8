/**
 * `normalize=json`: both sides of a diff as sorted-key, 2-space JSON, so key order and layout
 * stop counting as changes. Numbers are copied as written (JSON.parse would round
 * 12345678901234567890 and hide a real difference); strings are rewritten in JSON.stringify's
 * escaping, so "\u0041" and "A" compare equal, as they are equal values.
 */

export type NormalizeResult = { ok: true; text: string } | { ok: false; message: string };

export function normalizeJson(text: string): NormalizeResult {
	try {
		JSON.parse(text);
	} catch (e) {
		return { ok: false, message: (e as Error).message };
	}
	try {
		const reader = new Reader(text);
		const value = reader.value();
		return { ok: true, text: print(value, "") };
	} catch (e) {
		// Valid JSON nested deeper than the stack allows.
		if (e instanceof RangeError) return { ok: false, message: "nested too deeply to normalise" };
		throw e;
	}
}

type Value = { kind: "literal"; text: string } | { kind: "array"; items: Value[] } | { kind: "object"; members: [string, Value][] };

/** Reads text that JSON.parse has accepted, so it can skip every error check. */
class Reader {
	private i = 0;
	constructor(private readonly s: string) {}

	value(): Value {
		this.space();
		const c = this.s[this.i];
		if (c === "{") {
			this.i++;
			const members: [string, Value][] = [];
			this.space();
			if (this.s[this.i] === "}") {
				this.i++;
				return { kind: "object", members };
			}
			for (;;) {
				this.space();
				const key = this.string();
				this.space();
				this.i++; // :
				members.push([key, this.value()]);
				this.space();
				if (this.s[this.i++] === "}") return { kind: "object", members };
			}
		}
		if (c === "[") {
			this.i++;
			const items: Value[] = [];
			this.space();
			if (this.s[this.i] === "]") {
				this.i++;
				return { kind: "array", items };
			}
			for (;;) {
				items.push(this.value());
				this.space();
				if (this.s[this.i++] === "]") return { kind: "array", items };
			}
		}
		if (c === '"') return { kind: "literal", text: JSON.stringify(this.string()) };
		const m = /-?[0-9.eE+-]+|true|false|null/y;
		m.lastIndex = this.i;
		const literal = m.exec(this.s)![0];
		this.i += literal.length;
		return { kind: "literal", text: literal };
	}

	/** A string token, decoded. */
	private string(): string {
		const start = this.i;
		this.i++;
		while (this.s[this.i] !== '"') this.i += this.s[this.i] === "\\" ? 2 : 1;
		this.i++;
		return JSON.parse(this.s.slice(start, this.i)) as string;
	}

	private space(): void {
		while (this.i < this.s.length && " \t\n\r".includes(this.s[this.i])) this.i++;
	}
}

function print(value: Value, indent: string): string {
	if (value.kind === "literal") return value.text;
	const inner = indent + "  ";
	if (value.kind === "array") {
		if (value.items.length === 0) return "[]";
		return `[\n${value.items.map((v) => inner + print(v, inner)).join(",\n")}\n${indent}]`;
	}
	if (value.members.length === 0) return "{}";
	// Sorted by code unit, stable: a duplicated key keeps its order (JSON.parse keeps the last one).
	const members = [...value.members].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	return `{\n${members.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${print(v, inner)}`).join(",\n")}\n${indent}}`;
}
