/**
 * Issue 26 in the plugin, in real Chromium with the production main.js: "Import .http file" takes
 * JetBrains' env files picked with the .http file, adds their auth configurations to user.toml
 * (comments kept, an existing configuration never overwritten, no secret value written) and says
 * in one notice what it added, which secrets to set and what did not map.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { launchPluginHost, USER_TOML, type PluginHost } from "./support/host";

jest.setTimeout(90_000);

const FIXTURES = join(__dirname, "..", "fixtures", "jetbrains-env");
const envFile = (name: string) => ({ name, mimeType: "application/json", buffer: readFileSync(join(FIXTURES, name)) });
const MINE = '# mine\n[environments.test.auth.robot]\ntype = "oauth2"\ngrant = "client_credentials"\ntoken_url = "https://mine.example.com/token"\n';

let host: PluginHost;

beforeAll(async () => {
	host = await launchPluginHost({ userToml: MINE });
});

afterAll(async () => {
	await host?.close();
});

/** Runs the command and hands the picker these files; resolves with the import's notice. */
async function pick(files: Array<{ name: string; mimeType: string; buffer: Buffer }>): Promise<string> {
	const before = await host.api((h) => h.notices.length);
	const chooser = host.page.waitForEvent("filechooser");
	await host.api((h) => h.runCommand("import-http-file"));
	const picker = await chooser;
	expect(picker.isMultiple()).toBe(true);
	await picker.setFiles(files);
	await host.until((h, n) => h.notices.length > n, before);
	return host.api((h, n) => h.notices.slice(n).join("\n"), before);
}

it("the .http file and both env files picked together: a note, and the auth configurations in user.toml", async () => {
	const notice = await pick([{ name: "api.http", mimeType: "text/plain", buffer: Buffer.from("GET {{base_url}}/me\nAuthorization: Bearer {{$auth.token(\"service\")}}\n") }, envFile("http-client.env.json"), envFile("http-client.private.env.json")]);
	const toml = await host.api((h, path) => h.files.get(path) ?? "", USER_TOML);
	// What was there stays as it was, first; the new tables follow.
	expect(toml.startsWith(MINE)).toBe(true);
	expect(toml).toContain('[environments.dev.auth.service]\ntype = "oauth2"\ngrant = "client_credentials"\ntoken_url = "https://id.example.com/realms/notes/protocol/openid-connect/token"\nclient_id = "notes-ci"\nclient_auth = "post"\nscope = "api"');
	expect(toml).toContain('client_secret = { secret = "dev-service-client-secret" }');
	expect(toml).toContain("[environments.dev.auth.browser]");
	expect(toml).not.toContain("[environments.dev.auth.legacy]");
	// {{tv_client}} is defined nowhere: the table is written without the client id.
	expect(toml).toContain("[environments.dev.auth.tv]");
	for (const secret of ["dev-ci-secret-value", "test-secret-value", "robot-password-value"]) expect(toml).not.toContain(secret);
	// test.robot was already configured: kept, not overwritten.
	expect(toml.match(/\[environments\.test\.auth\.robot\]/g)).toHaveLength(1);
	expect(toml).not.toContain("id.test.example.com");

	expect(notice).toContain("Imported api.http as api.md");
	expect(notice).toContain(`Added to ${USER_TOML}: [environments.dev.auth.service], [environments.dev.auth.browser], [environments.dev.auth.tv]`);
	expect(notice).toContain("Kept as they were (already in user.toml, not overwritten): [environments.test.auth.robot]");
	expect(notice).toMatch(/Set these secrets in the environment's settings \(their values were not imported\): dev-service-client-secret$/m);
	expect(notice).toContain("Not carried over:");
	expect(notice).toContain('dev.legacy "Grant Type": "Implicit" is not supported');
	expect(notice).toContain('dev.tv "Client ID": uses {{tv_client}}');
	expect(notice).toContain('dev.service "Custom Request Parameters.prompt"');
	await expect(host.api((h) => h.files.has("api.md"))).resolves.toBe(true);
});

it("an env file alone: only user.toml changes, and a second import keeps what the first added", async () => {
	const notice = await pick([envFile("http-client.env.json")]);
	expect(notice).not.toContain("Imported");
	expect(notice).toContain("Kept as they were (already in user.toml, not overwritten): [environments.dev.auth.service], [environments.dev.auth.browser], [environments.dev.auth.tv], [environments.test.auth.robot]");
	expect(notice).not.toContain("Added to");
});

it("a file that is not JSON, or not an import, is named in the notice with why it was not read", async () => {
	const notice = await pick([{ name: "http-client.env.json", mimeType: "application/json", buffer: Buffer.from("{ nope") }, { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("x") }]);
	expect(notice).toMatch(/^notes\.txt was not read: pick \.http, \.rest or env \(\.json\) files\.$/m);
	expect(notice).toMatch(/http-client\.env\.json was not read: it is not JSON \(.+\)\./);
});

it("a user.toml that does not parse is never rewritten, and the notice says the configurations were not added", async () => {
	const broken = "# mine\n[environments\n";
	await host.api((h, [path, text]) => h.writeFile(path, text), [USER_TOML, broken] as const);
	const notice = await pick([envFile("http-client.env.json"), envFile("http-client.private.env.json")]);
	expect(notice).toContain(`The auth configurations were not added: ${USER_TOML} does not parse, so it was not changed.`);
	expect(notice).not.toContain("Added to");
	await expect(host.api((h, path) => h.files.get(path), USER_TOML)).resolves.toBe(broken);
});
