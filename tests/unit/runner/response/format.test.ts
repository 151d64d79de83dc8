import { formatBytes, formatMs, toBase64 } from "../../../../src/runner/response/format";

describe("formatting", () => {
	it.each([
		[0, "0 B"],
		[1023, "1023 B"],
		[1024, "1.0 KiB"],
		[1536, "1.5 KiB"],
		[104857600, "100 MiB"],
		[5 * 1024 ** 3, "5.0 GiB"],
	])("%i bytes → %s", (n, s) => {
		expect(formatBytes(n)).toBe(s);
	});

	it.each([
		[0, "0 ms"],
		[999.6, "1000 ms"],
		[1500, "1.50 s"],
		[12_345, "12.3 s"],
		[125_000, "2 min 5 s"],
	])("%f ms → %s", (n, s) => {
		expect(formatMs(n)).toBe(s);
	});

	it("encodes base64 like Node does, for large inputs too", () => {
		const data = new Uint8Array(100_000).map((_, i) => (i * 7) % 256);
		expect(toBase64(data)).toBe(Buffer.from(data).toString("base64"));
	});
});
