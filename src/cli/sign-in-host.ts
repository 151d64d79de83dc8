/**
 * How the CLI asks a person to sign in: it prints the link (and the device code) on stderr, and
 * on a terminal opens the browser — `BROWSER` when set, else the system's opener. The browser's
 * return is received on a loopback port; Ctrl+C cancels the sign-in with the run.
 */
import type { ChildProcess, SpawnOptions } from "node:child_process";
import { listenLoopback } from "../runner/auth/loopback-redirect";
import type { SignInHost, SignInPrompt } from "../runner/auth/sign-in";

export interface CliSignInOptions {
	/** stderr */
	write(text: string): void;
	/** Whether a person is at a terminal: only then is a browser opened. */
	isTTY: boolean;
	env: Readonly<Record<string, string | undefined>>;
	platform: NodeJS.Platform;
	spawn(command: string, args: readonly string[], options: SpawnOptions): ChildProcess;
}

const PAGES = { received: "Signed in. You can close this tab and go back to the terminal.", refused: "The sign-in was refused: the terminal says why." };

export function cliSignInHost(opts: CliSignInOptions): SignInHost {
	return {
		prompt(prompt) {
			opts.write(`${promptText(prompt)}\n`);
			if (opts.isTTY) openBrowser(prompt.kind === "browser" ? prompt.url : (prompt.verificationUriComplete ?? prompt.verificationUri), opts);
			return () => undefined;
		},
		listen: (uri) => listenLoopback(uri, PAGES),
	};
}

/** What the person reads: the link, and for a device code the code and how long it lives. */
export function promptText(prompt: SignInPrompt): string {
	if (prompt.kind === "browser") return `auth "${prompt.name}": sign in at ${prompt.url}\n(waiting for the browser; Ctrl+C cancels)`;
	const link = prompt.verificationUriComplete ? `${prompt.verificationUri} (or ${prompt.verificationUriComplete})` : prompt.verificationUri;
	return `auth "${prompt.name}": open ${link} and enter the code ${prompt.userCode}\n(waiting for the confirmation; Ctrl+C cancels)`;
}

/**
 * The command that opens `url`: `BROWSER` as Python's webbrowser reads it (the first of its
 * `:`-separated commands; `%s` stands for the URL, else the URL is the last argument), else
 * `open` (macOS), `cmd /c start` (Windows) or `xdg-open`.
 */
export function browserCommand(url: string, env: CliSignInOptions["env"], platform: NodeJS.Platform): { command: string; args: string[] } {
	const chosen = env.BROWSER?.split(platform === "win32" ? ";" : ":").find((c) => c.trim() !== "");
	if (chosen) {
		const words = chosen.trim().split(/\s+/);
		const args = words.slice(1);
		return { command: words[0], args: args.some((a) => a.includes("%s")) ? args.map((a) => a.replace("%s", url)) : [...args, url] };
	}
	if (platform === "darwin") return { command: "open", args: [url] };
	// `start`'s first quoted argument is a window title: an empty one, so the URL is not taken for it.
	if (platform === "win32") return { command: "cmd", args: ["/c", "start", '""', url.replace(/&/g, "^&")] };
	return { command: "xdg-open", args: [url] };
}

function openBrowser(url: string, opts: CliSignInOptions): void {
	const { command, args } = browserCommand(url, opts.env, opts.platform);
	try {
		const child = opts.spawn(command, args, { detached: true, stdio: "ignore" });
		// The link is printed already: a missing opener is a note, not a failure.
		child.on("error", (e) => opts.write(`(could not open a browser with ${command}: ${e.message}; open the link yourself)\n`));
		child.unref();
	} catch (e) {
		opts.write(`(could not open a browser with ${command}: ${e instanceof Error ? e.message : String(e)}; open the link yourself)\n`);
	}
}
