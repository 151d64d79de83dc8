import { parseTokenSet, secretTokenStore, tokenSecretId, type SecretStorageLike } from "../../../../src/runner/auth/token-store";

/** Obsidian's secret storage as the store sees it, over a Map (ids checked as Obsidian checks them). */
function secrets(): SecretStorageLike & { map: Map<string, string> } {
	const map = new Map<string, string>();
	return {
		map,
		getSecret: (id) => map.get(id) ?? null,
		setSecret: (id, v) => {
			if (!/^[a-z0-9-]+$/.test(id)) throw new Error(`invalid id ${id}`);
			map.set(id, v);
		},
		listSecrets: () => [...map.keys()],
	};
}

describe("tokenSecretId", () => {
	it.each([
		["dev", "kc"],
		["Dev Env", "Key_Cloak.2"],
		["ünïcode", "名前"],
	])("is a valid secret id for %j / %j", (env, name) => expect(tokenSecretId(env, name)).toMatch(/^runnable-blocks-token-[a-z0-9-]+$/));

	it("keeps apart names that write alike", () => {
		expect(tokenSecretId("dev", "a-b")).not.toBe(tokenSecretId("dev", "a_b"));
		expect(tokenSecretId("Dev", "kc")).not.toBe(tokenSecretId("dev", "kc"));
	});
});

describe("parseTokenSet", () => {
	it.each([null, "", "{", "[]", '{"accessToken":1,"issuedAt":0}', '{"accessToken":"a"}', '{"accessToken":"a","issuedAt":0,"expiresAt":"soon"}'])("reads %j as nothing", (text) => expect(parseTokenSet(text)).toBeUndefined());

	it("reads back what was kept", () => {
		const set = { accessToken: "a", refreshToken: "r", idToken: "i", issuedAt: 1, expiresAt: 2, scope: "openid" };
		expect(parseTokenSet(JSON.stringify(set))).toEqual(set);
	});
});

describe("secretTokenStore", () => {
	it("keeps, reads back and forgets one configuration's tokens", () => {
		const s = secrets();
		const store = secretTokenStore(s);
		store.save("dev", "kc", { accessToken: "A", issuedAt: 5 });
		expect(store.load("dev", "kc")).toEqual({ accessToken: "A", issuedAt: 5 });
		expect(store.load("prod", "kc")).toBeUndefined();
		store.save("dev", "kc", null);
		expect(store.load("dev", "kc")).toBeUndefined();
	});

	it("clear empties its own secrets and leaves the user's alone", () => {
		const s = secrets();
		s.setSecret("kc-secret", "client secret");
		const store = secretTokenStore(s);
		store.save("dev", "a", { accessToken: "A", issuedAt: 0 });
		store.save("prod", "b", { accessToken: "B", issuedAt: 0 });
		store.clear();
		expect([...s.map].filter(([, v]) => v !== "")).toEqual([["kc-secret", "client secret"]]);
	});
});
