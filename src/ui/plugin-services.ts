import { Notice, Platform, requestUrl, type App } from "obsidian";
import { cacheKey } from "../runner/cache-key";
import { HistoryStore, maskSecrets } from "../runner/history-store";
import { ByteLruCache } from "../runner/lru-cache";
import type { BlockResult } from "../runner/result";
import type { Transport } from "../runner/transport";
import { environmentVariables } from "../settings/user-settings";
import { createObsidianTransport } from "./obsidian-transport";
import type { ActiveEnvironment, PluginHistory, RuntimeServices } from "./runtime";
import type { SettingsStore } from "./settings-store";
import { vaultBinaryStorage } from "./vault-binary-storage";

/**
 * The engine services of the plugin. Everything is created on first use: the node transport
 * (desktop only, behind Platform.isDesktopApp), sql.js and its history file.
 */
export class PluginServices implements RuntimeServices {
	readonly cache = new ByteLruCache<BlockResult>();
	private nodeTransport: Promise<Transport & { close(): void }> | null = null;
	private fetchTransport: Promise<Transport> | null = null;
	private historyStore: Promise<HistoryStore | null> | null = null;

	constructor(
		private readonly app: App,
		private readonly settings: SettingsStore,
		private readonly pluginDir: string,
	) {}

	transport(): Promise<Transport> {
		const choice = this.settings.settings.general.transport;
		// Opt-in: streams and really cancels without Node, but only against servers that allow CORS.
		if (choice === "fetch") {
			this.fetchTransport ??= import("../runner/http/fetch-transport").then((m) => new m.FetchTransport());
			return this.fetchTransport;
		}
		if (!Platform.isDesktopApp || choice === "obsidian") return Promise.resolve(createObsidianTransport(requestUrl));
		this.nodeTransport ??= import("../runner/http/node-transport").then((m) => m.createNodeTransport());
		return this.nodeTransport;
	}

	cacheKey = cacheKey;

	history(): Promise<PluginHistory | null> {
		this.historyStore ??= HistoryStore.open(vaultBinaryStorage(this.app.vault.adapter), `${this.pluginDir}/history.sqlite`, {
			onNotice: (m) => new Notice(`Runnable Blocks: ${m}`, 10000),
		}).catch((e: unknown) => {
			new Notice(`Runnable Blocks: run history is unavailable (${e instanceof Error ? e.message : String(e)})`);
			return null;
		});
		return this.historyStore.then((store) =>
			store
				? {
						record: (entry) => store.record(entry),
						list: (filePath, alias) => Promise.resolve(store.list(filePath, alias)),
						renameFile: (a, b) => store.renameFile(a, b),
					}
				: null,
		);
	}

	environment(): ActiveEnvironment {
		const s = this.settings.settings;
		const env = environmentVariables(s, s.general.environment, (id) => this.app.secretStorage.getSecret(id) ?? undefined);
		return { name: s.general.environment, variables: env.variables, secretValues: env.secretValues };
	}

	defaultTimeoutMs(): number {
		return this.settings.settings.general.timeout;
	}

	maskUrl(url: string): string {
		return maskSecrets(url, this.environment().secretValues);
	}

	/** Writes pending history and closes sockets (plugin unload). */
	async dispose(): Promise<void> {
		const store = await this.historyStore;
		await store?.close();
		(await this.nodeTransport)?.close();
	}
}
