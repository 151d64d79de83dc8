/**
 * @jest-environment jsdom
 */
import { TextDecoder, TextEncoder } from "node:util";
import type { AuthUse } from "../../../../src/runner/auth/run-auth";
import type { TokenSet } from "../../../../src/runner/auth/token-set";
import { AuthView, type AuthTokenSource } from "../../../../src/ui/panel/auth-view";
import { installDomHelpers } from "../../../e2e/host/obsidian-shim";

beforeAll(() => {
	installDomHelpers();
	// jsdom's window has neither; jose, which the view requires on its first decode, needs both.
	Object.assign(globalThis, { TextEncoder, TextDecoder });
});

const NOW = 1_800_000_000_000;
/** A JWT as a provider signs it; the view decodes and never verifies, so any signature bytes do. */
const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
const jwt = `${part({ alg: "HS256" })}.${part({ sub: "alice", exp: NOW / 1000 + 600 })}.c2lnbmF0dXJl`;
const kc: AuthUse = { environment: "dev", name: "kc", grant: "authorization_code" };

/** A token cache holding `kept`, whose changes the test announces. */
function cache(kept: Record<string, TokenSet>) {
	const listeners = new Set<() => void>();
	const source: AuthTokenSource = { current: (use) => kept[use.name], onChange: (l) => (listeners.add(l), () => listeners.delete(l)), now: () => NOW };
	return { source, kept, changed: () => listeners.forEach((l) => l()) };
}

function show(uses: AuthUse[], source: AuthTokenSource) {
	const parent = createDiv();
	const view = new AuthView(parent, uses, source);
	view.onload();
	return { parent, view };
}

const text = (el: Element | null) => el?.textContent ?? "";
const rowsOf = (table: Element | null) => Array.from(table?.querySelectorAll("tr") ?? []).map((tr) => [text(tr.querySelector("th")), text(tr.querySelector("td"))]);

describe("the Auth tab", () => {
	it("lists the configuration's environment, grant, token type, expiry and scope, and the decoded claims", () => {
		const { parent } = show([kc], cache({ kc: { accessToken: jwt, issuedAt: NOW, expiresAt: NOW + 10 * 60_000, scope: "openid api", tokenType: "bearer" } }).source);
		expect(text(parent.querySelector(".rb-auth-name"))).toBe("kc");
		const facts = rowsOf(parent.querySelector(".rb-auth-facts"));
		expect(facts.map(([label]) => label)).toEqual(["Environment", "Grant", "Token type", "Expires", "Scope"]);
		expect(facts[0][1]).toBe("dev");
		expect(facts[1][1]).toBe("authorization_code");
		expect(facts[2][1]).toBe("bearer");
		expect(facts[3][1]).toMatch(/\(in 10 min\)$/);
		expect(facts[4][1]).toBe("openid api");
		expect(rowsOf(parent.querySelector(".rb-auth-header"))).toEqual([["alg", "HS256"]]);
		const claims = rowsOf(parent.querySelector(".rb-auth-claims"));
		expect(claims[0]).toEqual(["sub", "alice"]);
		expect(claims[1][0]).toBe("exp");
	});

	it("shows the raw token only after Show token, and hides it again", () => {
		const { parent } = show([kc], cache({ kc: { accessToken: jwt, issuedAt: NOW } }).source);
		expect(text(parent)).not.toContain(jwt);
		const button = parent.querySelector<HTMLButtonElement>(".rb-auth-show");
		button?.click();
		expect(text(parent.querySelector(".rb-auth-raw"))).toBe(jwt);
		expect(text(button)).toBe("Hide token");
		button?.click();
		expect(text(parent)).not.toContain(jwt);
		expect(text(button)).toBe("Show token");
	});

	it("says an opaque token has no claims, and lists the ID token apart", () => {
		const { parent } = show([kc], cache({ kc: { accessToken: "2YotnFZFEjr1zCsicMWpAA", idToken: jwt, issuedAt: NOW, expiresAt: NOW - 1 } }).source);
		const [access, id] = Array.from(parent.querySelectorAll(".rb-auth-token"));
		expect(text(access.querySelector(".rb-auth-opaque"))).toBe("An opaque token: not a JWT, so there are no claims to show.");
		expect(text(id.querySelector(".rb-auth-token-title"))).toBe("ID token");
		expect(rowsOf(id.querySelector(".rb-auth-claims"))[0]).toEqual(["sub", "alice"]);
		expect(rowsOf(parent.querySelector(".rb-auth-facts"))[3][1]).toMatch(/\(expired\)$/);
	});

	it("redraws when the cache changes: a cleared token is said to be gone, its raw text hidden", () => {
		const c = cache({ kc: { accessToken: jwt, issuedAt: NOW } });
		const { parent } = show([kc], c.source);
		parent.querySelector<HTMLButtonElement>(".rb-auth-show")?.click();
		delete c.kept.kc;
		c.changed();
		expect(text(parent)).not.toContain(jwt);
		expect(text(parent)).toContain("No token is kept for this configuration");
	});

	it("stops following the cache once unloaded", () => {
		const c = cache({ kc: { accessToken: jwt, issuedAt: NOW } });
		const { parent, view } = show([kc], c.source);
		view.unload();
		delete c.kept.kc;
		c.changed();
		expect(text(parent)).not.toContain("No token is kept");
	});
});
