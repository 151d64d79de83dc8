/**
 * The plugin's part of the sign-ins that need a person (docs/auth.md): a modal, the system
 * browser, and where the browser returns to: on desktop a loopback server, on mobile the
 * `obsidian://runnable-blocks-auth` link, which Obsidian hands to the protocol handler that
 * `onload` registers. Required on the first such sign-in or link (a text module of main.js), never at start.
 */
import { Platform, type App } from "obsidian";
import type { InteractiveGrants } from "../../runner/auth/auth-tokens";
import { interactiveGrants } from "../../runner/auth/interactive-grants";
import { listenLoopback } from "../../runner/auth/loopback-redirect";
import type { ProtocolRedirects } from "../../runner/auth/protocol-redirect";
import type { SignInHost } from "../../runner/auth/sign-in";
import { t } from "../strings";
import { isWebUrl, SignInModal, type SignInActions } from "./sign-in-modal";

export interface PluginSignInOptions {
	/** Opens a link in the system browser (Obsidian hands window.open's web links to it). */
	openUrl?: (url: string) => void;
	copy?: (text: string) => Promise<void>;
	/** Whether a loopback server can listen here: the desktop app. Elsewhere the browser returns through `protocol`. */
	desktop?: boolean;
	/** The sign-ins waiting for an `obsidian://runnable-blocks-auth` link, which the plugin's protocol handler feeds. */
	protocol?: ProtocolRedirects;
}

export { ProtocolRedirects } from "../../runner/auth/protocol-redirect";

export function pluginSignInHost(app: App, opts: PluginSignInOptions = {}): SignInHost {
	const openUrl = opts.openUrl ?? ((url: string) => void window.open(url));
	const copy = opts.copy ?? ((text: string) => navigator.clipboard.writeText(text));
	return {
		prompt(prompt, cancel) {
			const actions: SignInActions = { openUrl, copy, cancel };
			const modal = new SignInModal(app, prompt, actions);
			modal.open();
			// The browser sign-in starts at once; a device code may be confirmed on another device, so its page opens on demand.
			if (prompt.kind === "browser" && isWebUrl(prompt.url)) openUrl(prompt.url);
			return () => modal.finish();
		},
		...((opts.desktop ?? Platform.isDesktopApp)
			? { listen: (uri: string) => listenLoopback(uri, { received: t("authPageReceived"), refused: t("authPageRefused") }) }
			: opts.protocol
				? { listen: () => Promise.resolve((opts.protocol as ProtocolRedirects).listen()) }
				: {}),
	};
}

/** The grants `PluginServices.authInteraction` hands the engine. */
export const pluginSignInGrants = (app: App, protocol: ProtocolRedirects): InteractiveGrants => interactiveGrants(pluginSignInHost(app, { protocol }));
