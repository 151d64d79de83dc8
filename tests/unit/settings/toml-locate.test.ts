import { findKey, findTable, formatKeyPart, layoutOf, locate, splitKey } from "../../../src/settings/toml-locate";

describe("splitKey", () => {
	it("splits bare, dotted and quoted keys", () => {
		expect(splitKey("a")).toEqual(["a"]);
		expect(splitKey(' a . "b.c" . \'d\' ')).toEqual(["a", "b.c", "d"]);
		expect(splitKey('"tab\\there\\n\\"q\\""')).toEqual(['tab\there\n"q"']);
		expect(splitKey("'C:\\path'")).toEqual(["C:\\path"]);
	});

	it("refuses what is not a key", () => {
		expect(splitKey("")).toBeNull();
		expect(splitKey('"open')).toBeNull();
		expect(splitKey("a b")).toBeNull();
		expect(splitKey("a.$")).toBeNull();
	});
});

describe("formatKeyPart", () => {
	it("writes a part bare when it can, quoted otherwise", () => {
		expect(formatKeyPart("run-all_2")).toBe("run-all_2");
		expect(formatKeyPart("block.run")).toBe('"block.run"');
		expect(formatKeyPart("")).toBe('""');
	});
});

describe("layoutOf", () => {
	const text = [
		"# settings", // 1
		'theme = "dark" # trailing', // 2
		"", // 3
		"[keys]", // 4
		'  "block.run" = "Mod-Enter"', // 5
		"run_all = 'Mod-Shift-Enter' # not # inside", // 6
		"[[environments]] # one", // 7
		'name = "dev"', // 8
		'notes = """', // 9
		"x = 1", // 10
		"y = 2", // 11
		'"""', // 12
		"url = \"http://a#b\"", // 13
	].join("\n");
	const layout = layoutOf(text);

	it("finds each key with its table path, line and columns, skipping comments and multi-line string contents", () => {
		expect(layout.keys.map((k) => [k.path.join("/"), k.line, k.column, k.valueColumn])).toEqual([
			["theme", 2, 1, 9],
			["keys/block.run", 5, 3, 17],
			["keys/run_all", 6, 1, 11],
			["environments/name", 8, 1, 8],
			["environments/notes", 9, 1, 9],
			["environments/url", 13, 1, 7],
		]);
	});

	it("gives each value's offsets without a trailing comment, and keeps a # inside a string", () => {
		const value = (path: string[]) => {
			const k = findKey(layout, path);
			return k && text.slice(k.valueFrom, k.valueTo);
		};
		expect(value(["theme"])).toBe('"dark"');
		expect(value(["keys", "run_all"])).toBe("'Mod-Shift-Enter'");
		expect(value(["environments", "url"])).toBe('"http://a#b"');
		const theme = findKey(layout, ["theme"]);
		expect(theme && text.slice(theme.lineFrom, theme.lineTo)).toBe('theme = "dark" # trailing\n');
	});

	it("finds tables, array tables and where their last key line ends", () => {
		const keys = findTable(layout, ["keys"]);
		expect(keys).toMatchObject({ line: 4, array: false });
		expect(keys && text.slice(keys.headerFrom, keys.headerTo)).toBe("[keys]\n");
		expect(keys && text.slice(0, keys.lastKeyEnd).endsWith("run_all = 'Mod-Shift-Enter' # not # inside\n")).toBe(true);
		expect(findTable(layout, ["environments"])).toMatchObject({ line: 7, array: true, lastKeyEnd: text.length });
		expect(findTable(layout, ["nope"])).toBeUndefined();
	});

	it("reads CRLF lines as their text", () => {
		const crlf = layoutOf("[a]\r\nb = 1\r\n");
		expect(findKey(crlf, ["a", "b"])).toMatchObject({ line: 2, valueFrom: 9, valueTo: 10, lineFrom: 5, lineTo: 12 });
	});
});

describe("locate", () => {
	const text = "[connections.shop]\ntype = \"sqlite\"\npath = 3\n";

	it("points at a key's value", () => {
		expect(locate(text, ["connections", "shop", "path"])).toEqual({ line: 3, column: 8 });
	});

	it("falls back to the nearest table written, then to the first line", () => {
		expect(locate(text, ["connections", "shop", "readonly"])).toEqual({ line: 1, column: 1 });
		expect(locate(text, ["keys", "run"])).toEqual({ line: 1, column: 1 });
		expect(locate("x = 1\n[keys]\n", ["keys", "run"])).toEqual({ line: 2, column: 1 });
	});
});
