// A real OpenID provider for the auth tests: oidc-provider (the certified reference
// implementation) on 127.0.0.1, a free port, plus a protected resource that checks the tokens it
// issued. Started by tests/support/oidc/index.ts in a child process (oidc-provider is ESM-only).
// Prints one JSON line with its URLs on stdout; everything else goes to stderr.
//
// Environment: TOKEN_TTL (access token lifetime, seconds; default 600).
import http from "node:http";
import Provider, { errors } from "oidc-provider";

const ttl = Number(process.env.TOKEN_TTL ?? 600);
const server = http.createServer();
await new Promise((done) => server.listen(0, "127.0.0.1", done));
const issuer = `http://127.0.0.1:${server.address().port}`;

const CLIENT = { client_id: "notes", client_secret: "notes-secret-0123456789", redirect_uris: ["http://127.0.0.1/callback", "obsidian://runnable-blocks-auth"], application_type: "native", token_endpoint_auth_method: "client_secret_basic", grant_types: ["client_credentials", "password", "refresh_token", "authorization_code", "urn:ietf:params:oauth:grant-type:device_code"], response_types: ["code"] };
const USERS = { alice: "alice-password-0123" };

const provider = new Provider(issuer, {
	clients: [CLIENT],
	findAccount: async (_ctx, id) => (USERS[id] ? { accountId: id, claims: async () => ({ sub: id, name: id }) } : undefined),
	features: {
		clientCredentials: { enabled: true },
		introspection: { enabled: true },
		revocation: { enabled: true },
		deviceFlow: { enabled: true },
		devInteractions: { enabled: true },
		// RFC 8707: a token asked for a resource is bound to it (its `aud`, which /api answers with);
		// a token or refresh request without one gets the resource the sign-in granted.
		resourceIndicators: {
			enabled: true,
			useGrantedResource: async () => true,
			getResourceServerInfo: async (_ctx, resourceIndicator) => ({ scope: "api", audience: resourceIndicator, accessTokenFormat: "opaque" }),
		},
	},
	// Auth0's audience is no OAuth parameter: accepted so that the requests that carry it are recorded.
	extraParams: ["audience"],
	scopes: ["openid", "offline_access", "api"],
	ttl: { AccessToken: ttl, ClientCredentials: ttl, IdToken: ttl, RefreshToken: 3600, DeviceCode: 600, Interaction: 600, Session: 600, Grant: 3600 },
	issueRefreshToken: async () => true,
	pkce: { required: () => true },
	rotateRefreshToken: false,
});

// The resource owner password grant (RFC 6749 §4.3): oidc-provider has none built in, so the test
// provider adds it (the OAuth client under test only sends the standard request).
provider.registerGrantType(
	"password",
	async (ctx) => {
		const { username, password } = ctx.oidc.params;
		if (!USERS[username] || USERS[username] !== password) throw new errors.InvalidGrant("wrong username or password");
		const client = ctx.oidc.client;
		const grant = new provider.Grant({ accountId: username, clientId: client.clientId });
		grant.addOIDCScope("openid offline_access");
		const grantId = await grant.save();
		const at = new provider.AccessToken({ accountId: username, client, grantId, scope: "openid offline_access", gty: "password" });
		const rt = new provider.RefreshToken({ accountId: username, client, grantId, scope: "openid offline_access", gty: "password" });
		ctx.body = { access_token: await at.save(), token_type: "Bearer", expires_in: at.expiration, refresh_token: await rt.save(), scope: "openid offline_access" };
	},
	["username", "password", "scope"],
);

provider.on("server_error", (_ctx, err) => process.stderr.write(`server_error: ${err.stack}\n`));

// What the clients asked at the authorization, device authorization and token endpoints: the
// fields (repeated ones as arrays) and the client authentication (the Basic pair, decoded), for
// the tests that compare what a client sends.
const asked = [];
provider.use(async (ctx, next) => {
	await next();
	if (!["/auth", "/device/auth", "/token"].includes(ctx.path)) return;
	const basic = /^Basic (.+)$/.exec(ctx.headers.authorization ?? "")?.[1];
	// RFC 6749 §2.3.1: id and secret are form-urlencoded before the Basic pair is built; read back as the provider does.
	const formDecoded = (part) => decodeURIComponent(part.replace(/\+/g, " "));
	const pair = basic ? Buffer.from(basic, "base64").toString().split(":") : null;
	asked.push({ path: ctx.path, fields: { ...(ctx.method === "GET" ? ctx.query : ctx.oidc?.body) }, basic: pair ? `${formDecoded(pair[0])}:${formDecoded(pair.slice(1).join(":"))}` : null, status: ctx.status });
});
const callback = provider.callback();
server.on("request", callback);

// The protected resource (any path but /calls, /asked and /deny): answers 200 to a token the provider still knows, 401 otherwise.
let calls = 0;
const resource = http.createServer(async (req, res) => {
	if (req.url === "/calls") {
		res.writeHead(200, { "content-type": "application/json" });
		res.end(JSON.stringify({ calls }));
		return;
	}
	if (req.url === "/asked") {
		res.writeHead(200, { "content-type": "application/json" });
		res.end(JSON.stringify(asked));
		return;
	}
	calls++;
	// A resource that refuses every token: a client must not ask again and again.
	if (req.url === "/deny") {
		res.writeHead(401, { "www-authenticate": 'Bearer error="invalid_token"', "cache-control": "no-store" });
		res.end();
		return;
	}
	const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
	const found = token ? ((await provider.AccessToken.find(token)) ?? (await provider.ClientCredentials.find(token))) : undefined;
	if (!found || found.isExpired) {
		res.writeHead(401, { "www-authenticate": 'Bearer error="invalid_token"', "content-type": "application/json", "cache-control": "no-store" });
		res.end(JSON.stringify({ error: "invalid_token" }));
		return;
	}
	res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
	res.end(JSON.stringify({ ok: true, sub: found.accountId ?? found.clientId, ...(found.aud ? { aud: found.aud } : {}) }));
});
await new Promise((done) => resource.listen(0, "127.0.0.1", done));

process.stdout.write(`${JSON.stringify({ issuer, resource: `http://127.0.0.1:${resource.address().port}`, client: { id: CLIENT.client_id, secret: CLIENT.client_secret }, user: { name: "alice", password: USERS.alice } })}\n`);
process.on("SIGTERM", () => process.exit(0));
