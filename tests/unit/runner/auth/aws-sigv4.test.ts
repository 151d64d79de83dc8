import vectors from "../../../fixtures/aws-sigv4/vectors.json";
import { amzDate, awsAuthorization, signAwsRequest } from "../../../../src/runner/auth/aws-sigv4";
import type { PreparedRequest } from "../../../../src/runner/request";

const SUITE_TIME = Date.UTC(2015, 7, 30, 12, 36, 0);
const request = (c: { method: string; url: string; headers: string[][]; body: string }, authorization: string): PreparedRequest => ({
	method: c.method as PreparedRequest["method"],
	url: c.url,
	headers: [...c.headers.map(([n, v]): [string, string] => [n, v]), ["Authorization", authorization]],
	body: c.body,
	followRedirects: true,
	timeoutMs: 1000,
});
const header = (r: PreparedRequest, name: string) => r.headers.find(([n]) => n.toLowerCase() === name)?.[1];
const SUITE_FORM = `AWS ${vectors.credentials.accessKeyId} ${vectors.credentials.secretAccessKey} region:${vectors.region} service:${vectors.service}`;

describe("AWS Signature V4 against the AWS test suite (tests/fixtures/aws-sigv4/vectors.json)", () => {
	it("writes X-Amz-Date in the suite's form", () => expect(amzDate(SUITE_TIME)).toBe(vectors.date));

	it.each(vectors.cases.map((c) => [c.name, c] as const))("%s: the signature is the published one", (_name, c) => {
		const signed = signAwsRequest(request(c, SUITE_FORM), SUITE_TIME);
		if (!signed.ok) throw new Error(signed.error.message);
		expect(header(signed.request, "authorization")).toBe(c.authorization);
		expect(header(signed.request, "x-amz-date")).toBe(vectors.date);
		// The written headers go out as written; the transport adds Host and Content-Length.
		expect(signed.request.headers.map(([n]) => n)).toEqual([...c.headers.map(([n]) => n), "X-Amz-Date", "Authorization"]);
	});

	it("signs a session token and sends it", () => {
		const signed = signAwsRequest(request(vectors.cases[0], `${SUITE_FORM} token:session-1`), SUITE_TIME);
		if (!signed.ok) throw new Error(signed.error.message);
		expect(header(signed.request, "x-amz-security-token")).toBe("session-1");
		expect(header(signed.request, "authorization")).toContain("SignedHeaders=host;x-amz-date;x-amz-security-token,");
	});

	it("leaves a request without the AWS form as it is", () => {
		const r = request(vectors.cases[0], "Bearer x");
		expect(signAwsRequest(r, SUITE_TIME)).toEqual({ ok: true, request: r });
	});

	it("hides the signature and the session token wherever the request is shown", () => {
		const r = { ...request(vectors.cases[0], `${SUITE_FORM} token:session-1`) };
		r.masked = { url: r.url, target: "/", headers: [["Authorization", "•••"]], body: "", withReferences: { url: r.url, headers: [["Authorization", '{{$auth.token("aws")}}']], body: "" } };
		const signed = signAwsRequest(r, SUITE_TIME);
		if (!signed.ok) throw new Error(signed.error.message);
		expect(signed.request.masked?.headers).toEqual([["X-Amz-Date", vectors.date], ["X-Amz-Security-Token", "•••"], ["Authorization", "AWS4-HMAC-SHA256 •••"]]);
	});
});

describe("httpyac's Authorization: AWS form", () => {
	it("is what an aws-sigv4 configuration's $auth.token stands for", () => {
		const auth = { name: "aws", config: { type: "aws-sigv4" as const, accessKeyId: "AKID", secretAccessKey: { secret: "k" }, region: "eu-west-1", service: "execute-api" }, secrets: { secret_access_key: "s3cr3t" }, unset: [] };
		expect(awsAuthorization(auth)).toEqual({ ok: true, value: "AWS AKID s3cr3t region:eu-west-1 service:execute-api" });
		const unset = awsAuthorization({ ...auth, secrets: {}, unset: ["k"] });
		expect(!unset.ok && unset.reason).toContain('auth "aws": secret "k" is not set');
	});

	it("infers region and service from an amazonaws.com host when the form leaves them out", () => {
		const signed = signAwsRequest(request({ method: "GET", url: "https://cognito-idp.eu-central-1.amazonaws.com/", headers: [], body: "" }, "AWS doe 12345678"), SUITE_TIME);
		expect(signed.ok && header(signed.request, "authorization")).toContain("Credential=doe/20150830/eu-central-1/cognito-idp/aws4_request");
	});
});
