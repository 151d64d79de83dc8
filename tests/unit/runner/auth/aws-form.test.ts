import { awsAuthorizationAt, parseAwsAuthorization } from "../../../../src/runner/auth/aws-form";

describe("httpyac's Authorization: AWS form", () => {
	it.each([
		["AWS doe 12345678 token:token region:eu-central-1 service:cognito-idp", { accessKeyId: "doe", secretAccessKey: "12345678", sessionToken: "token", region: "eu-central-1", service: "cognito-idp" }],
		["AWS doe 12345678 token:token", { accessKeyId: "doe", secretAccessKey: "12345678", sessionToken: "token" }],
		["AWS doe 12345678", { accessKeyId: "doe", secretAccessKey: "12345678" }],
	])("reads %s", (value, expected) => expect(parseAwsAuthorization(value)).toEqual(expected));

	it.each(["AWS4-HMAC-SHA256 Credential=x", "AWS onlykey", "Bearer x"])("is not %s", (value) => expect(parseAwsAuthorization(value)).toBeNull());
});

describe("a request to sign", () => {
	it.each([
		[[["authorization", "AWS doe 12345678"]], 0],
		[[["Accept", "*/*"], ["Authorization", "AWS doe 12345678 region:eu-west-1"]], 1],
		[[["Authorization", "Bearer x"]], -1],
		[[["X-Note", "AWS doe 12345678"]], -1],
		[[], -1],
	] as Array<[Array<[string, string]>, number]>)("%j: the form's header at %i", (headers, at) => expect(awsAuthorizationAt(headers)).toBe(at));
});
