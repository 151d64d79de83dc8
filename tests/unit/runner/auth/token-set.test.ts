import { isFresh, REFRESH_MARGIN_MS } from "../../../../src/runner/auth/token-set";

describe("a token is renewed before it expires", () => {
	const hour = { accessToken: "a", issuedAt: 0, expiresAt: 3_600_000 };
	const tenSeconds = { accessToken: "a", issuedAt: 0, expiresAt: 10_000 };
	it.each([
		["an hour's token, 31 s before", hour, hour.expiresAt - REFRESH_MARGIN_MS - 1_000, true],
		["an hour's token, 30 s before", hour, hour.expiresAt - REFRESH_MARGIN_MS, false],
		["a 10 s token, 3 s in", tenSeconds, 3_000, true],
		["a 10 s token, 8 s in (a fifth of its life left)", tenSeconds, 8_000, false],
		["a token past its expiry", hour, hour.expiresAt + 1, false],
		["a token whose lifetime the provider did not say", { accessToken: "a", issuedAt: 0 }, 1e12, true],
	])("%s: fresh %s", (_what, tokens, now, fresh) => expect(isFresh(tokens, now)).toBe(fresh));
});
