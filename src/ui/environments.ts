import { Modal, Setting, SuggestModal, type App } from "obsidian";
import { notify } from "./notify";
import { t } from "./strings";
import { environmentNames, secretId, VARIABLE_NAME } from "../settings/variables";
import type { SettingsStore } from "./settings-store";

/**
 * Environment operations shared by the switcher, the new-variable popover, the status bar
 * and the settings page. Every change goes through user.toml (comment-preserving patches).
 */
export class EnvironmentActions {
	constructor(
		private readonly app: App,
		private readonly store: SettingsStore,
	) {}

	get active(): string {
		return this.store.settings.general.environment;
	}

	switchTo(name: string): Promise<boolean> {
		return this.store.set(["general", "environment"], name);
	}

	/**
	 * Writes a variable into an environment. A secret's value goes to Obsidian's secret
	 * storage and user.toml only names it; without secret storage nothing is written.
	 */
	async setVariable(environment: string, name: string, value: string, secret: boolean): Promise<boolean> {
		if (!secret) return this.store.set(["environments", environment, name], value);
		const storage = (this.app as Partial<Pick<App, "secretStorage">>).secretStorage;
		if (!storage) {
			notify(t("noSecretStorage"));
			return false;
		}
		const id = secretId(environment, name);
		storage.setSecret(id, value);
		return this.store.set(["environments", environment, name], { secret: id });
	}

	openSwitcher(): void {
		const names = environmentNames(this.store.settings);
		if (names.length === 0) {
			notify(t("noEnvironments"));
			return;
		}
		new EnvironmentSwitcher(this.app, names, this.active, (name) => void this.switchTo(name)).open();
	}

	openNewVariable(): void {
		new NewVariableModal(this.app, { environment: this.active || environmentNames(this.store.settings)[0] || "dev" }, async (v) => {
			const ok = await this.setVariable(v.environment, v.name, v.value, v.secret);
			// A first environment becomes the active one, so the variable is usable at once.
			if (ok && !this.active) await this.switchTo(v.environment);
			if (ok) notify(t("variableAdded", { name: v.name, environment: v.environment }));
		}).open();
	}

	/** The status-bar item: the active environment; a click opens the switcher. */
	attachStatusBar(el: HTMLElement): () => void {
		el.addClass("rb-env-status", "mod-clickable");
		el.setAttr("aria-label", t("switchEnvironment"));
		const render = () => el.setText(this.active ? t("envStatus", { name: this.active }) : t("envStatusNone"));
		render();
		el.addEventListener("click", () => this.openSwitcher());
		return this.store.onChange(render);
	}
}

/** env.switch (Mod+E when bound): pick the active environment. */
export class EnvironmentSwitcher extends SuggestModal<string> {
	constructor(
		app: App,
		private readonly names: string[],
		private readonly active: string,
		private readonly onPick: (name: string) => void,
	) {
		super(app);
		this.setPlaceholder(t("switchEnvironmentPlaceholder"));
	}

	getSuggestions(query: string): string[] {
		const q = query.trim().toLowerCase();
		return this.names.filter((n) => n.toLowerCase().includes(q));
	}

	renderSuggestion(name: string, el: HTMLElement): void {
		el.createSpan({ text: name });
		if (name === this.active) el.createSpan({ cls: "rb-suggest-hint", text: ` ${t("activeHint")}` });
	}

	onChooseSuggestion(name: string): void {
		this.onPick(name);
	}
}

export interface NewVariable {
	environment: string;
	name: string;
	value: string;
	secret: boolean;
}

/** env.new_variable (Mod+Shift+V when bound): name, value and "secret?" for a new variable of the active environment. */
export class NewVariableModal extends Modal {
	private readonly draft: NewVariable;

	constructor(
		app: App,
		initial: Partial<NewVariable>,
		private readonly submit: (v: NewVariable) => Promise<void>,
	) {
		super(app);
		this.draft = { environment: "", name: "", value: "", secret: false, ...initial };
	}

	override onOpen(): void {
		this.setTitle(t("newVariable"));
		const { contentEl } = this;
		contentEl.addClass("rb-new-variable");
		new Setting(contentEl).setName(t("environment")).addText((c) => {
			c.inputEl.addClass("rb-new-variable-env");
			c.setValue(this.draft.environment).onChange((v) => (this.draft.environment = v.trim()));
		});
		let nameInput: HTMLInputElement | null = null;
		new Setting(contentEl).setName(t("name")).addText((c) => {
			nameInput = c.inputEl;
			c.inputEl.addClass("rb-new-variable-name");
			c.setPlaceholder(t("variableNamePlaceholder"))
				.setValue(this.draft.name)
				.onChange((v) => (this.draft.name = v.trim()));
		});
		new Setting(contentEl).setName(t("value")).addText((c) => {
			c.inputEl.addClass("rb-new-variable-value");
			c.onChange((v) => (this.draft.value = v));
		});
		new Setting(contentEl)
			.setName(t("secret"))
			.setDesc(t("secretDesc"))
			.addToggle((c) => c.setValue(this.draft.secret).onChange((v) => (this.draft.secret = v)));
		const error = contentEl.createDiv({ cls: "rb-new-variable-error" });
		const save = () => {
			const problem = !VARIABLE_NAME.test(this.draft.name)
				? t("badVariableName")
				: !this.draft.environment
					? t("missingEnvironment")
					: null;
			if (problem) {
				error.setText(problem);
				return;
			}
			this.close();
			void this.submit({ ...this.draft });
		};
		new Setting(contentEl).addButton((b) => b.setButtonText(t("addVariable")).setCta().onClick(save));
		this.scope.register([], "Enter", () => {
			save();
			return false;
		});
		(nameInput as HTMLInputElement | null)?.focus();
	}

	override onClose(): void {
		this.contentEl.empty();
	}
}
