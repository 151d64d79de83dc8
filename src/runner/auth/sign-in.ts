/**
 * The grants that need a person (authorization code, device code) and what they ask of their
 * host: the plugin shows a modal and opens the system browser, the CLI prints the link and opens
 * the browser on a terminal. Both listen for the browser's return on a loopback port where they
 * can (desktop, CLI); on mobile, which has no server to listen with, the plugin's protocol handler
 * receives it.
 */
import type { LoopbackRedirect } from "./loopback-redirect";

/** What the person is asked to do. */
export type SignInPrompt =
	| { kind: "browser"; name: string; url: string }
	| { kind: "device"; name: string; userCode: string; verificationUri: string; verificationUriComplete?: string; expiresAt: number };

export interface SignInHost {
	/**
	 * Shows the person what to do (and opens the browser where it can). `cancel` ends the sign-in
	 * (the prompt's Cancel); the returned function closes the prompt once the sign-in has ended.
	 */
	prompt(prompt: SignInPrompt, cancel: () => void): () => void;
	/**
	 * Starts listening for the browser's return: at the loopback URI asked for (desktop, CLI), or
	 * through Obsidian's protocol handler at its own URI (mobile); absent where nothing can listen.
	 */
	listen?: (redirectUri: string) => Promise<LoopbackRedirect>;
	/** Resolves after `ms`, or at once when `signal` aborts (polling, the browser's time limit). Tests pass their own. */
	wait?: (ms: number, signal: AbortSignal) => Promise<void>;
	/** How long a browser sign-in may take; default SIGN_IN_TIMEOUT_MS. */
	timeoutMs?: number;
}

/** A person gets five minutes to sign in in the browser, as long as a device code usually lives. */
export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

/** `setTimeout` that ends early on abort. */
export function waitFor(ms: number, signal: AbortSignal): Promise<void> {
	return new Promise((resolve) => {
		if (signal.aborted) return resolve();
		const done = () => {
			clearTimeout(timer);
			signal.removeEventListener("abort", done);
			resolve();
		};
		const timer = setTimeout(done, ms);
		signal.addEventListener("abort", done);
	});
}

/**
 * An abort controller for one sign-in: aborted by the prompt's Cancel or the run's cancel. `dispose`
 * stops following the run's signal, so a long session does not pile up listeners.
 */
export function signInControl(runSignal: AbortSignal | undefined): { signal: AbortSignal; cancel: () => void; dispose: () => void } {
	const controller = new AbortController();
	const cancel = () => controller.abort();
	if (runSignal?.aborted) cancel();
	runSignal?.addEventListener("abort", cancel);
	return { signal: controller.signal, cancel, dispose: () => runSignal?.removeEventListener("abort", cancel) };
}
