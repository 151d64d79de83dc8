import { toml } from "../../../src/settings/toml";

describe("toml: smol-toml, required on the first use", () => {
	it("is one copy, the same each time", () => {
		expect(toml()).toBe(toml());
	});

	it("parses and writes TOML", () => {
		expect(toml().parse('[general]\nkeymap_preset = "vim"\n')).toEqual({ general: { keymap_preset: "vim" } });
		expect(toml().stringify({ v: 'say "hi"' }).trim()).toBe('v = "say \\"hi\\""');
	});

	it("throws its own TomlError, with the line, for a file that does not parse", () => {
		const { parse, TomlError } = toml();
		let error: unknown;
		try {
			parse("a = 1\nb = = 2\n");
		} catch (e) {
			error = e;
		}
		expect(error).toBeInstanceOf(TomlError);
		expect((error as InstanceType<typeof TomlError>).line).toBe(2);
	});

});
