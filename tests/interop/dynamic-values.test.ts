/**
 * The spec of the conformance suite's masking (tests/interop/conformance.ts): a request made on
 * another day, or in another time zone, compares equal to the recorded one in every form a date
 * is sent in; whatever is not a dynamic value still has to match byte for byte.
 */
import { comparableSent, type SentRequest } from "./conformance";

/** The request as it reaches the server, with `value` in the URL's query, a header and the body. */
function carrying(value: string): SentRequest {
	return { method: "POST", url: `/anything?q=${value}`, headers: [["X-When", value]], body: Buffer.from(`{"at": "${value}"}`).toString("base64") };
}

const masked = (value: string, dynamic = true) => comparableSent(carrying(value), new Set(["x-when"]), dynamic);

describe("a date made on another day compares equal, in every form it is sent in", () => {
	// [form, as httpyac sent it on a Wednesday in November, as we send it on another day or in another zone]
	it.each([
		["RFC 1123", "Wed, 25 Nov 2026 12:54:37 GMT", "Sun, 03 Jan 2027 23:30:05 GMT"],
		["RFC 1123, percent-encoded", "Wed,%2025%20Nov%202026%2012:54:37%20GMT", "Mon,%2030%20Nov%202026%2010:00:00%20GMT"],
		["RFC 1123, form-encoded", "Wed%2C+25+Nov+2026+12%3A54%3A37+GMT", "Sun%2C+29+Nov+2026+23%3A30%3A00+GMT"],
		["RFC 1123, local time east and west", "Wed, 25 Nov 2026 12:54:37 +0000", "Sun, 29 Nov 2026 18:30:00 -0500"],
		["RFC 1123, local time, percent-encoded", "Wed,%2025%20Nov%202026%2012:54:37%20+0000", "Mon,%2030%20Nov%202026%2016:15:00%20%2B0545"],
		["ISO 8601", "2026-11-25T12:54:37.047Z", "2027-01-03T23:30:05.000Z"],
		["ISO 8601, local time, with and without milliseconds", "2026-11-25T12:54:37+00:00", "2026-11-29T18:30:00.000-05:00"],
		["ISO 8601, percent-encoded", "2026-11-25T12%3A54%3A37%2B00%3A00", "2026-11-30T05%3A45%3A00%2B05%3A45"],
		["a custom format with numbers", "25.11.2026 12:54", "03.01.2027 23:30"],
		["a custom format with names", "Wednesday 25 November 2026", "Sunday 3 January 2027"],
		["a custom format with short names", "Wed 25 Nov", "Sun 03 Jan"],
		["unix time", "1795611276", "1799019005"],
	])("%s", (_form, recorded, ours) => {
		expect(masked(ours)).toEqual(masked(recorded));
	});
});

describe("what is not a dynamic value still has to match", () => {
	it.each([
		["a date encoded differently", "Wed,%2025%20Nov%202026%2012:54:37%20GMT", "Wed,+25+Nov+2026+12:54:37+GMT"],
		["a date in another form", "Wed, 25 Nov 2026 12:54:37 GMT", "2026-11-25T12:54:37.047Z"],
		["a name inside a word", "Monitor", "Sunitor"],
		["text beside a date", "Wed, 25 Nov 2026 12:54:37 GMT (a)", "Wed, 25 Nov 2026 12:54:37 GMT (b)"],
	])("%s", (_what, recorded, ours) => {
		expect(masked(ours)).not.toEqual(masked(recorded));
	});

	it("and in a request without dynamic built-ins, dates are compared as sent", () => {
		expect(masked("Sun, 03 Jan 2027 23:30:05 GMT", false)).not.toEqual(masked("Wed, 25 Nov 2026 12:54:37 GMT", false));
	});
});
