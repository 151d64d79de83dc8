import { Component } from "obsidian";
import type { AuthUse } from "../../runner/auth/run-auth";
import { claimRows, decodeToken, expiryOf, type Expiry } from "../../runner/auth/token-claims";
import type { TokenSet } from "../../runner/auth/token-set";
import { t, type StringKey } from "../strings";

/** What the Auth tab reads: the session's token cache (never the run's result, history or the note), and the clock. */
export interface AuthTokenSource {
	current(use: AuthUse): TokenSet | undefined;
	/** Calls `listener` whenever the kept tokens change (renewed, cleared); returns the unsubscribe. */
	onChange(listener: () => void): () => void;
	now(): number;
}

/**
 * The Auth tab (docs/auth.md#the-auth-tab): per configuration the last run used, its environment,
 * grant, token type, expiry and scope, and the decoded header and claims of its access and ID
 * tokens. A raw token is shown only after its "Show token" click, and hidden again at the next;
 * it redraws (tokens hidden) whenever the cache changes. Everything is set as text.
 */
export class AuthView extends Component {
	constructor(
		private readonly parent: HTMLElement,
		private readonly uses: readonly AuthUse[],
		private readonly tokens: AuthTokenSource,
	) {
		super();
	}

	override onload(): void {
		this.render();
		this.register(this.tokens.onChange(() => this.render()));
	}

	private render(): void {
		this.parent.empty();
		if (this.uses.length === 0) {
			this.parent.createDiv({ cls: "rb-muted", text: t("authViewNone") });
			return;
		}
		const now = this.tokens.now();
		for (const use of this.uses) this.renderUse(use, this.tokens.current(use), now);
	}

	private renderUse(use: AuthUse, tokens: TokenSet | undefined, now: number): void {
		const section = this.parent.createDiv({ cls: "rb-auth-config", attr: { "data-auth-name": use.name } });
		section.createDiv({ cls: "rb-auth-name", text: use.name });
		const facts: Array<[StringKey, string]> = [
			["authViewEnvironment", use.environment],
			["authViewGrant", use.grant],
			...(tokens ? ([["authViewTokenType", tokens.tokenType ?? t("authViewNotSaid")], ["authViewExpires", expiryText(expiryOf(tokens.expiresAt, now))], ["authViewScope", tokens.scope ?? t("authViewNotSaid")]] as Array<[StringKey, string]>) : []),
		];
		const table = section.createEl("table", { cls: "rb-table rb-auth-facts" }).createEl("tbody");
		for (const [label, value] of facts) {
			const tr = table.createEl("tr");
			tr.createEl("th", { text: t(label) });
			tr.createEl("td", { text: value });
		}
		if (!tokens) {
			section.createDiv({ cls: "rb-muted", text: t("authViewNoToken") });
			return;
		}
		this.renderToken(section, "authViewAccessToken", tokens.accessToken);
		if (tokens.idToken !== undefined) this.renderToken(section, "authViewIdToken", tokens.idToken);
	}

	private renderToken(parent: HTMLElement, title: StringKey, token: string): void {
		const el = parent.createDiv({ cls: "rb-auth-token" });
		el.createDiv({ cls: "rb-auth-token-title", text: t(title) });
		const decoded = decodeToken(token);
		if (decoded.kind === "opaque") el.createDiv({ cls: "rb-muted rb-auth-opaque", text: t("authViewOpaque") });
		else {
			claimTable(el, "rb-auth-header", t("authViewHeader"), decoded.header);
			claimTable(el, "rb-auth-claims", t("authViewClaims"), decoded.claims);
		}
		const toggle = el.createEl("button", { cls: "rb-auth-show", text: t("authViewShowToken") });
		let raw: HTMLElement | null = null;
		this.registerDomEvent(toggle, "click", () => {
			if (raw) {
				raw.remove();
				raw = null;
			} else raw = el.createEl("pre", { cls: "rb-code rb-auth-raw", text: token });
			toggle.setText(raw ? t("authViewHideToken") : t("authViewShowToken"));
		});
	}
}

function claimTable(parent: HTMLElement, cls: string, caption: string, claims: Readonly<Record<string, unknown>>): void {
	const table = parent.createEl("table", { cls: `rb-table ${cls}` });
	table.createEl("caption", { text: caption });
	const body = table.createEl("tbody");
	for (const row of claimRows(claims)) {
		const tr = body.createEl("tr");
		tr.createEl("th", { text: row.name });
		tr.createEl("td", { text: row.at === undefined ? row.value : `${row.value} (${new Date(row.at).toLocaleString()})` });
	}
}

function expiryText(expiry: Expiry): string {
	switch (expiry.kind) {
		case "unknown":
			return t("authViewNotSaid");
		case "expired":
			return t("authViewExpired", { time: new Date(expiry.at).toLocaleString() });
		case "valid":
			return t("authViewExpiresIn", { time: new Date(expiry.at).toLocaleString(), minutes: String(expiry.minutes) });
	}
}
