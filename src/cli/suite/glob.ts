/**
 * Shell-style globs for `run <glob>`, as a shell that does not expand them (quoted in CI
 * files, or Windows) would mean them: `*` and `?` within one path segment, `**` across
 * segments, `[abc]` and `{a,b}`. Paths are matched with forward slashes.
 */

/** True when the argument has glob syntax; a path without any is read as a file or folder. */
export function isGlob(arg: string): boolean {
	return /[*?[{]/.test(arg);
}

/** The folder a glob's walk starts from: its segments before the first one with glob syntax. */
export function globBase(pattern: string): string {
	const segments = pattern.split("/");
	const first = segments.findIndex(isGlob);
	const base = segments.slice(0, first === -1 ? segments.length : first).join("/");
	return base === "" ? (pattern.startsWith("/") ? "/" : ".") : base;
}

/** The glob as an anchored regular expression over a whole forward-slash path. */
export function globToRegExp(pattern: string): RegExp {
	let re = "";
	let braces = 0;
	for (let i = 0; i < pattern.length; i++) {
		const c = pattern[i];
		if (c === "*" && pattern[i + 1] === "*") {
			// `**/` matches zero or more whole segments; a trailing `**` anything below.
			const slash = pattern[i + 2] === "/";
			re += slash ? "(?:[^/]*/)*" : ".*";
			i += slash ? 2 : 1;
		} else if (c === "*") re += "[^/]*";
		else if (c === "?") re += "[^/]";
		else if (c === "[") {
			const end = pattern.indexOf("]", i + 2);
			if (end === -1) re += "\\[";
			else {
				const body = pattern.slice(i + 1, end).replace(/^!/, "^").replace(/\\/g, "\\\\");
				re += `[${body}]`;
				i = end;
			}
		} else if (c === "{") {
			braces++;
			re += "(?:";
		} else if (c === "}" && braces > 0) {
			braces--;
			re += ")";
		} else if (c === "," && braces > 0) re += "|";
		else re += c.replace(/[.+^$()|\\\]}]/g, "\\$&");
	}
	return new RegExp(`^${re}$`);
}
