import { tlsSettingFor } from "../../../src/settings/tls-settings";
import { parseSettings, type SettingsResult } from "../../../src/settings/user-settings";

const parse = (toml: string) => parseSettings(toml) as Extract<SettingsResult, { ok: true }>;
const problems = (r: Extract<SettingsResult, { ok: true }>) => [...r.errors, ...r.warnings].map((p) => `${p.line}:${p.column} ${p.key}: ${p.message}`);

describe("[tls.*] in user.toml", () => {
	it("reads each server's CA, verification, client certificate and passphrase (a string or a secret), keyed in lower case", () => {
		const r = parse('[tls."API.example.com:8443"]\nca = " certs/ca.pem "\ncert = "certs/c.pem"\nkey = "certs/k.pem"\npassphrase = { secret = "client-key" }\n[tls.localhost]\nverify = false\npassphrase = "plain"\n');
		expect(problems(r)).toEqual([]);
		expect(r.settings.tls).toEqual({
			"api.example.com:8443": { ca: "certs/ca.pem", cert: "certs/c.pem", key: "certs/k.pem", passphrase: { secret: "client-key" }, verify: true },
			localhost: { verify: false, passphrase: { value: "plain" } },
		});
	});

	it("says what is wrong where it is written, keeping the rest of a server's setting", () => {
		const r = parse('[tls."https://x.test"]\nverify = false\n[tls."y.test"]\nverify = "no"\nca = 3\ncert = "c.pem"\npassphrase = 1\ncolour = "red"\n[tls]\nz = 1\n');
		expect(problems(r)).toEqual([
			'1:1 tls."https://x.test": "https://x.test" is not a host or host:port (write [tls."api.example.com"] or [tls."localhost:8443"], without https://)',
			'4:10 tls."y.test".verify: must be true or false (got "no")',
			'5:6 tls."y.test".ca: must be the path of a PEM file in the vault (got 3)',
			'7:14 tls."y.test".passphrase: must be a string or { secret = "id" } (got 1)',
			'6:8 tls."y.test".cert: a client certificate needs both cert and key',
			'10:5 tls.z: must be a table: [tls."z"] with ca, verify, cert, key',
			'8:10 tls."y.test".colour: unknown key "colour" is kept but ignored (known: ca, verify, cert, key, passphrase)',
		]);
		expect(r.settings.tls).toEqual({ "y.test": { cert: "c.pem", verify: true } });
	});

	it("finds a URL's server by host:port first, then host; an https URL without a port is on 443", () => {
		const { tls } = parse('[tls."x.test:8443"]\nverify = false\n[tls."x.test"]\nca = "ca.pem"\n[tls."[::1]:9443"]\nverify = false\n').settings;
		expect(tlsSettingFor(new URL("https://X.test:8443/a"), tls)).toEqual({ verify: false });
		expect(tlsSettingFor(new URL("https://x.test/a"), tls)).toEqual({ ca: "ca.pem", verify: true });
		expect(tlsSettingFor(new URL("https://x.test:9000/"), tls)).toEqual({ ca: "ca.pem", verify: true });
		expect(tlsSettingFor(new URL("https://[::1]:9443/"), tls)).toEqual({ verify: false });
		expect(tlsSettingFor(new URL("https://y.test/"), tls)).toBeUndefined();
	});
});
