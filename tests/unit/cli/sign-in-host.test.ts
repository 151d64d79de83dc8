import type { ChildProcess } from "node:child_process";
import { EventEmitter } from "node:events";
import { browserCommand, cliSignInHost, promptText } from "../../../src/cli/sign-in-host";
import type { SignInPrompt } from "../../../src/runner/auth/sign-in";

const URL_ = "https://id.example.com/authorize?a=1&b=2";

describe("browserCommand", () => {
	it.each([
		[{}, "linux", { command: "xdg-open", args: [URL_] }],
		[{}, "darwin", { command: "open", args: [URL_] }],
		[{}, "win32", { command: "cmd", args: ["/c", "start", '""', "https://id.example.com/authorize?a=1^&b=2"] }],
		[{ BROWSER: "firefox" }, "linux", { command: "firefox", args: [URL_] }],
		[{ BROWSER: "w3m:lynx" }, "linux", { command: "w3m", args: [URL_] }],
		[{ BROWSER: "chromium --incognito %s" }, "linux", { command: "chromium", args: ["--incognito", URL_] }],
		[{ BROWSER: "" }, "darwin", { command: "open", args: [URL_] }],
	] as const)("BROWSER %j on %s opens with %j", (env, platform, expected) => {
		expect(browserCommand(URL_, env, platform)).toEqual(expected);
	});
});

describe("promptText", () => {
	it.each<[SignInPrompt, string]>([
		[{ kind: "browser", name: "web", url: URL_ }, `auth "web": sign in at ${URL_}\n(waiting for the browser; Ctrl+C cancels)`],
		[{ kind: "device", name: "tv", userCode: "WDJB-MJHT", verificationUri: "https://id/device", expiresAt: 0 }, 'auth "tv": open https://id/device and enter the code WDJB-MJHT\n(waiting for the confirmation; Ctrl+C cancels)'],
		[{ kind: "device", name: "tv", userCode: "WDJB-MJHT", verificationUri: "https://id/device", verificationUriComplete: "https://id/device?c=W", expiresAt: 0 }, 'auth "tv": open https://id/device (or https://id/device?c=W) and enter the code WDJB-MJHT\n(waiting for the confirmation; Ctrl+C cancels)'],
	])("prints %j", (prompt, text) => expect(promptText(prompt)).toBe(text));
});

describe("cliSignInHost", () => {
	function host(isTTY: boolean, env: Record<string, string> = {}) {
		const written: string[] = [];
		const spawned: Array<{ command: string; args: readonly string[] }> = [];
		const children: EventEmitter[] = [];
		const h = cliSignInHost({
			write: (t) => written.push(t),
			isTTY,
			env,
			platform: "linux",
			spawn: (command, args) => {
				spawned.push({ command, args });
				const child = Object.assign(new EventEmitter(), { unref: () => undefined });
				children.push(child);
				return child as unknown as ChildProcess;
			},
		});
		return { h, written, spawned, children };
	}
	const device: SignInPrompt = { kind: "device", name: "tv", userCode: "ABCD", verificationUri: "https://id/device", verificationUriComplete: "https://id/device?c=ABCD", expiresAt: 0 };

	it("prints the link and opens the browser on a terminal (the complete device link)", () => {
		const t = host(true, { BROWSER: "firefox" });
		t.h.prompt(device, () => undefined);
		expect(t.written).toEqual([`${promptText(device)}\n`]);
		expect(t.spawned).toEqual([{ command: "firefox", args: ["https://id/device?c=ABCD"] }]);
	});

	it("only prints the link when no terminal is attached (CI)", () => {
		const t = host(false);
		t.h.prompt({ kind: "browser", name: "web", url: URL_ }, () => undefined);
		expect(t.written).toHaveLength(1);
		expect(t.spawned).toEqual([]);
	});

	it("says so when the browser cannot be opened, and goes on waiting", () => {
		const t = host(true);
		t.h.prompt({ kind: "browser", name: "web", url: URL_ }, () => undefined);
		t.children[0].emit("error", new Error("spawn xdg-open ENOENT"));
		expect(t.written[1]).toBe("(could not open a browser with xdg-open: spawn xdg-open ENOENT; open the link yourself)\n");
	});

	it("listens for the browser's return", () => {
		expect(typeof host(false).h.listen).toBe("function");
	});
});
