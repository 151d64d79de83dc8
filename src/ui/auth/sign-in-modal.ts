import { Modal, type App } from "obsidian";
import type { SignInPrompt } from "../../runner/auth/sign-in";
import { t } from "../strings";

/** What the modal does outside itself: open a link in the system browser, copy a code. */
export interface SignInActions {
	openUrl(url: string): void;
	copy(text: string): Promise<void>;
	/** Ends the sign-in: the Cancel button, or the modal closed by the person (Escape, ×). */
	cancel(): void;
}

/** Only web links become buttons: an authorization server's URL is the provider's text, not ours. */
export const isWebUrl = (url: string): boolean => /^https?:\/\//i.test(url);

/**
 * The person's part of a sign-in: for the browser, a line saying to continue there and a button
 * that opens the page again; for a device code, the link, the code (copyable) and its expiry.
 * Closing the modal cancels the sign-in; `finish` closes it when the sign-in ended on its own.
 */
export class SignInModal extends Modal {
	private ended = false;

	constructor(
		app: App,
		private readonly prompt: SignInPrompt,
		private readonly actions: SignInActions,
	) {
		super(app);
	}

	override onOpen(): void {
		const p = this.prompt;
		this.setTitle(t("authSignInTitle", { name: p.name }));
		const el = this.contentEl;
		el.addClass("runnable-auth-sign-in");
		const buttons = () => el.createDiv({ cls: "modal-button-container" });
		if (p.kind === "browser") {
			el.createEl("p", { text: t("authSignInBrowser") });
			const row = buttons();
			if (isWebUrl(p.url)) this.button(row, t("authSignInOpenAgain"), () => this.actions.openUrl(p.url));
			this.button(row, t("authSignInCancel"), () => this.close());
			return;
		}
		el.createEl("p", { text: t("authDeviceInstructions", { url: p.verificationUri }) });
		el.createEl("code", { cls: "runnable-auth-user-code", text: p.userCode });
		el.createEl("p", { cls: "setting-item-description", text: t("authDeviceExpires", { time: new Date(p.expiresAt).toLocaleTimeString() }) });
		const row = buttons();
		const copy = this.button(row, t("authDeviceCopy"), () => void this.actions.copy(p.userCode).then(() => copy.setText(t("authDeviceCopied"))));
		const page = p.verificationUriComplete ?? p.verificationUri;
		if (isWebUrl(page)) this.button(row, t("authDeviceOpenPage"), () => this.actions.openUrl(page)).addClass("mod-cta");
		this.button(row, t("authSignInCancel"), () => this.close());
	}

	override onClose(): void {
		this.contentEl.empty();
		if (!this.ended) this.actions.cancel();
	}

	/** Closes the modal because the sign-in has ended (signed in, failed, timed out): nothing to cancel. */
	finish(): void {
		this.ended = true;
		this.close();
	}

	private button(parent: HTMLElement, text: string, onClick: () => void): HTMLButtonElement {
		const b = parent.createEl("button", { text });
		b.addEventListener("click", onClick);
		return b;
	}
}
