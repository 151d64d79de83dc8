/**
 * `?? subject op value` assertions, httpyac's syntax without JavaScript (docs/blocks.md):
 * subjects `status`, `header <name>`, `body [<jsonpath>]`, `duration`; operators below.
 * Never throws: a bad line or a JSONPath that cannot be read is a failed assertion with a message.
 */
import { jsonPath } from "./json-path";

export const BINARY_OPS = ["==", "!=", ">", ">=", "<", "<=", "includes", "contains", "startsWith", "endsWith", "matches"] as const;
export const UNARY_OPS = ["exists", "isNumber", "isString", "isBoolean", "isArray"] as const;
type Op = (typeof BINARY_OPS)[number] | (typeof UNARY_OPS)[number];

export type Subject = { kind: "status" } | { kind: "duration" } | { kind: "header"; name: string } | { kind: "body"; path: string | null };

export interface Assertion {
	subject: Subject;
	op: Op;
	/** The expected value as written (quotes removed); null for unary operators. */
	expected: string | null;
}

export type ParsedAssertion = { ok: true; assertion: Assertion } | { ok: false; message: string };

/** What an assertion is checked against. */
export interface AssertionResponse {
	status: number;
	headers: ReadonlyArray<[string, string]>;
	/** The body decoded as text. */
	body: string;
	durationMs: number;
}

export interface AssertionResult {
	/** 1-based note line. */
	line: number;
	/** The assertion as written, without `??`. */
	text: string;
	ok: boolean;
	/** The value the subject had, as text (null when there was none). */
	actual: string | null;
	/** Why it failed. */
	message?: string;
}

const OPS: readonly string[] = [...BINARY_OPS, ...UNARY_OPS];

/** Reads `subject op [value]`. */
export function parseAssertion(text: string): ParsedAssertion {
	const words = text.trim().split(/\s+/);
	const head = words[0] ?? "";
	let subject: Subject;
	let rest: string[];
	if (head === "status" || head === "duration") {
		subject = { kind: head };
		rest = words.slice(1);
	} else if (head === "header") {
		if (!words[1] || OPS.includes(words[1])) return { ok: false, message: "header needs a name: ?? header content-type includes json" };
		subject = { kind: "header", name: words[1] };
		rest = words.slice(2);
	} else if (head === "body") {
		const path = words[1] && !OPS.includes(words[1]) ? words[1] : null;
		subject = { kind: "body", path };
		rest = words.slice(path === null ? 1 : 2);
	} else {
		return { ok: false, message: `unknown subject "${head}": use status, header <name>, body [<jsonpath>] or duration` };
	}
	const op = rest[0];
	if (!op) return { ok: false, message: `missing operator: use one of ${OPS.join(" ")}` };
	if (!OPS.includes(op)) return { ok: false, message: `unknown operator "${op}": use one of ${OPS.join(" ")}` };
	const value = rest.slice(1).join(" ");
	if ((UNARY_OPS as readonly string[]).includes(op)) {
		if (value) return { ok: false, message: `${op} takes no value (got "${value}")` };
		return { ok: true, assertion: { subject, op: op as Op, expected: null } };
	}
	if (!value) return { ok: false, message: `${op} needs a value to compare with` };
	return { ok: true, assertion: { subject, op: op as Op, expected: unquote(value) } };
}

function unquote(s: string): string {
	const m = /^(["'])(.*)\1$/.exec(s);
	return m ? m[2] : s;
}

type Actual = { found: true; value: unknown } | { found: false; why: string };

function actualOf(subject: Subject, res: AssertionResponse): Actual {
	switch (subject.kind) {
		case "status":
			return { found: true, value: res.status };
		case "duration":
			return { found: true, value: Math.round(res.durationMs) };
		case "header": {
			const lower = subject.name.toLowerCase();
			const values = res.headers.filter(([n]) => n.toLowerCase() === lower).map(([, v]) => v);
			return values.length ? { found: true, value: values.join(", ") } : { found: false, why: `no header "${subject.name}"` };
		}
		case "body": {
			if (subject.path === null) return { found: true, value: res.body };
			let json: unknown;
			try {
				json = JSON.parse(res.body);
			} catch {
				return { found: false, why: `the body is not JSON, so ${subject.path} cannot be read` };
			}
			let matches: unknown[];
			try {
				// "safe" mode: the path comes from the note, the JSON from the server; nothing is eval'd.
				matches = jsonPath()<unknown[]>({ path: subject.path, json: json as object, eval: "safe", wrap: true });
			} catch (e) {
				return { found: false, why: `invalid JSONPath ${subject.path}: ${e instanceof Error ? e.message : String(e)}` };
			}
			if (matches.length === 0) return { found: false, why: `${subject.path} matches nothing in the body` };
			return { found: true, value: matches.length === 1 ? matches[0] : matches };
		}
	}
}

function show(value: unknown): string {
	return typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
}

function numberOf(value: unknown): number | null {
	if (typeof value === "number") return value;
	if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
	return null;
}

/** `==` as httpyac means it: numbers by value, JSON literals (true, null) by value, else text. */
function equals(actual: unknown, expected: string): boolean {
	const n = numberOf(actual);
	if (n !== null && numberOf(expected) !== null) return n === Number(expected);
	if (typeof actual === "boolean" || actual === null) return String(actual) === expected;
	if (typeof actual === "object") {
		try {
			return JSON.stringify(actual) === JSON.stringify(JSON.parse(expected));
		} catch {
			return false;
		}
	}
	return show(actual) === expected;
}

/** Checks one assertion against a response. */
export function evaluateAssertion(a: Assertion, res: AssertionResponse): { ok: boolean; actual: string | null; message?: string } {
	const got = actualOf(a.subject, res);
	if (a.op === "exists") return got.found ? { ok: true, actual: show(got.value) } : { ok: false, actual: null, message: got.why };
	if (!got.found) return { ok: false, actual: null, message: got.why };
	const v = got.value;
	const actual = show(v);
	const fail = (message: string) => ({ ok: false, actual, message });
	const e = a.expected ?? "";
	const check = (ok: boolean, what: string) => (ok ? { ok: true, actual } : fail(`expected ${what}, got ${actual}`));
	switch (a.op) {
		case "isNumber":
			return check(typeof v === "number", "a number");
		case "isString":
			return check(typeof v === "string", "a string");
		case "isBoolean":
			return check(typeof v === "boolean", "a boolean");
		case "isArray":
			return check(Array.isArray(v), "an array");
		case "==":
			return check(equals(v, e), `== ${e}`);
		case "!=":
			return check(!equals(v, e), `!= ${e}`);
		case ">":
		case ">=":
		case "<":
		case "<=": {
			const [x, y] = [numberOf(v), numberOf(e)];
			if (x === null || y === null) return fail(`${a.op} compares numbers: ${x === null ? `got ${actual}` : `"${e}" is not a number`}`);
			const ok = a.op === ">" ? x > y : a.op === ">=" ? x >= y : a.op === "<" ? x < y : x <= y;
			return check(ok, `${a.op} ${e}`);
		}
		case "includes":
		case "contains":
			return check(Array.isArray(v) ? v.some((item) => equals(item, e)) : actual.includes(e), `${a.op} ${e}`);
		case "startsWith":
			return check(actual.startsWith(e), `startsWith ${e}`);
		case "endsWith":
			return check(actual.endsWith(e), `endsWith ${e}`);
		case "matches": {
			let re: RegExp;
			try {
				re = new RegExp(e);
			} catch (err) {
				return fail(`invalid regular expression ${e}: ${err instanceof Error ? err.message : String(err)}`);
			}
			return check(re.test(actual), `matches ${e}`);
		}
	}
}

/** Parses and checks every `??` line of a block; `line` is the 1-based note line. */
export function checkAssertions(lines: ReadonlyArray<{ line: number; text: string }>, res: AssertionResponse): AssertionResult[] {
	return lines.map(({ line, text }) => {
		const parsed = parseAssertion(text);
		if (!parsed.ok) return { line, text, ok: false, actual: null, message: parsed.message };
		return { line, text, ...evaluateAssertion(parsed.assertion, res) };
	});
}
