import { requestForFile, shownRawHead, shownRequest, wireBody, type PreparedRequest } from "../../../src/runner/request";

const plain: PreparedRequest = { method: "POST", url: "http://127.0.0.1:8080/a?k=1", headers: [["Accept", "*/*"]], body: "é", followRedirects: true, timeoutMs: 1000 };
const withSecret: PreparedRequest = {
	...plain,
	url: "http://127.0.0.1:8080/a?key=s3cret",
	headers: [
		["Authorization", "Bearer s3cret"],
		["Accept", "*/*"],
	],
	body: '{"p":"s3cret"}',
	masked: {
		url: "http://127.0.0.1:8080/a?key=•••",
		target: "/a?key=•••",
		headers: [
			["Authorization", "Bearer •••"],
			["Accept", "*/*"],
		],
		body: '{"p":"•••"}',
		withReferences: {
			url: "http://127.0.0.1:8080/a?key={{key}}",
			headers: [
				["Authorization", "Bearer {{key}}"],
				["Accept", "*/*"],
			],
			body: '{"p":"{{key}}"}',
		},
	},
};

describe("wireBody", () => {
	it("sends the body as UTF-8, or the bytes read for its file parts", () => {
		expect([...wireBody(plain)]).toEqual([0xc3, 0xa9]);
		expect(wireBody({ ...plain, bodyBytes: new Uint8Array([1, 2]) })).toEqual(new Uint8Array([1, 2]));
	});
});

describe("shownRequest", () => {
	it("shows a request as it is when it used no secret", () => {
		expect(shownRequest(plain)).toEqual({ method: "POST", url: plain.url, headers: plain.headers, body: "é" });
	});

	it("shows the masked copy when it did", () => {
		expect(shownRequest(withSecret)).toEqual({ method: "POST", url: "http://127.0.0.1:8080/a?key=•••", headers: withSecret.masked?.headers, body: '{"p":"•••"}' });
	});
});

describe("requestForFile", () => {
	it("writes each secret back as its reference, never its value", () => {
		const forFile = requestForFile(withSecret);
		expect(forFile).toMatchObject({ url: "http://127.0.0.1:8080/a?key={{key}}", body: '{"p":"{{key}}"}', masked: undefined });
		expect(JSON.stringify(forFile)).not.toContain("s3cret");
	});

	it("keeps a request without secrets as it is", () => {
		expect(requestForFile(plain)).toBe(plain);
	});
});

describe("shownRawHead", () => {
	it("masks the request target and the header lines that came from a secret, by position", () => {
		const head = "POST /a?key=s3cret HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nAuthorization: Bearer s3cret\r\nAccept: */*\r\n\r\n";
		expect(shownRawHead(head, withSecret)).toBe("POST /a?key=••• HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nAuthorization: Bearer •••\r\nAccept: */*\r\n\r\n");
	});

	it("leaves the head of a request without secrets as written", () => {
		const head = "POST /a?k=1 HTTP/1.1\r\nAccept: */*\r\n\r\n";
		expect(shownRawHead(head, plain)).toBe(head);
	});
});
