import { errorOfBody, failureOfResponse, retryAfter } from "../../../src/chat/failures";

const NOW = Date.parse("2026-11-25T10:00:00Z");

describe("chat failures from HTTP error responses", () => {
	it.each([
		// [status, body, code] — bodies as OpenAI, Ollama, llama.cpp, vLLM and LM Studio write them
		[401, '{"error":{"message":"Incorrect API key","code":"invalid_api_key"}}', "unauthorized"],
		[403, "forbidden", "unauthorized"],
		[404, '{"error":{"message":"model \\"llama9\\" not found, try pulling it first","type":"api_error"}}', "model_not_found"],
		[404, '{"error":{"message":"The model `gpt-9` does not exist","code":"model_not_found"}}', "model_not_found"],
		[404, "404 page not found", "endpoint_not_found"],
		[400, '{"error":{"message":"too long","code":"context_length_exceeded"}}', "context_too_long"],
		[400, '{"error":{"code":400,"message":"the request exceeds the available context size","type":"exceed_context_size_error"}}', "context_too_long"],
		[400, '{"object":"error","message":"This model\'s maximum context length is 4096 tokens.","code":400}', "context_too_long"],
		[413, "", "context_too_long"],
		[429, '{"error":"slow down"}', "rate_limited"],
		[400, '{"error":"bad temperature"}', "server_error"],
		[502, "<html>bad gateway</html>", "server_error"],
	])("HTTP %i %s → %s", (status, body, code) => {
		expect(failureOfResponse(status, [], body, NOW).code).toBe(code);
	});

	it("keeps the server's message in the detail", () => {
		expect(failureOfResponse(400, [], '{"error":"bad temperature"}', NOW).detail).toBe("HTTP 400: bad temperature");
		expect(errorOfBody('{"object":"error","message":"m","type":"BadRequestError"}')).toEqual({ message: "m", code: "BadRequestError" });
	});

	it.each([
		["7", 7],
		["0", 0],
		["Wed, 25 Nov 2026 10:00:30 GMT", 30],
		["Wed, 25 Nov 2026 09:00:00 GMT", 0],
		["soon", undefined],
	])("Retry-After %s → %s seconds", (value, seconds) => {
		expect(retryAfter([["retry-after", value]], NOW)).toBe(seconds);
		expect(failureOfResponse(429, [["Retry-After", value]], "", NOW).retryAfterSeconds).toBe(seconds);
	});
});
