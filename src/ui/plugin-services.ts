import { FileSystemAdapter, Platform, TFile, normalizePath, requestUrl, type App } from "obsidian";
import type { DbDeps } from "../runner/db/db-result";
import type { KindDeps } from "../runner/result";
import { DeferredHistory } from "../runner/deferred-history";
import type { ActiveEnvironment, EnginePorts, NotePropertiesPort } from "../runner/engine";
import type { NoteLinks } from "../runner/cross-note";
import type { BodyFiles } from "../runner/file-parts";
import type { HistoryNotice, RunHistoryStore } from "../runner/history-store";
import type * as HistoryStoreModule from "../runner/history-store";
import type * as WorkerHistory from "../runner/worker-history";
import { fetchTransportModule, nodeTransportModule } from "../runner/http/transports";
import { tlsFromSettings, type TlsFor } from "../runner/http/tls-options";
import type { Transport } from "../runner/transport";
import { environmentVariables } from "../settings/user-settings";
import { watchConfigFile } from "./config-file-watch";
import { notify } from "./notify";
import { blobWorker } from "./db/blob-worker";
import type * as PluginDbModule from "./db/plugin-db";
import type { InteractiveGrants } from "../runner/auth/auth-tokens";
import { secretTokenStore, type TokenStore } from "../runner/auth/token-store";
import type * as PluginSignIn from "./auth/plugin-sign-in";
import type * as PromptModalModule from "./prompt-modal";
import type { AskPrompts } from "../runner/prompt-answers";
import type { ProtocolRedirects } from "../runner/auth/protocol-redirect";
import { obsidianNoteProperties } from "./note-properties";
import { announcePollEnd } from "./poll-notice";
import { historyAlias, type NoteBlock } from "../blocks";
import type { BlockResult } from "../runner/result";
import { createObsidianTransport } from "./obsidian-transport";
import type { SettingsStore } from "./settings-store";
import { t } from "./strings";
import { vaultBinaryStorage } from "./vault-binary-storage";

/**
 * The engine's ports in the plugin (`createEngine(services)`). Everything is created on first use, never in `onload`:
 * the node transport (desktop only, behind Platform.isDesktopApp), and run history (opened in
 * the background in a SQLite worker; runs never wait for it). Only successes are kept: a
 * failure is reported on the block and tried again on the next run.
 */
export class PluginServices implements EnginePorts {
	private nodeTransport: (Transport & { close(): void }) | null = null;
	private fetchTransport: Transport | null = null;
	private readonly runHistory: DeferredHistory;
	private readonly historyPath: string;
	private database: PluginDbModule.PluginDb | null = null;
	private signIn: InteractiveGrants | null = null;
	/** Sign-ins waiting for an `obsidian://runnable-blocks-auth` link (mobile); made with the first sign-in. */
	private redirects: ProtocolRedirects | null = null;
	private properties: NotePropertiesPort | null = null;
	private promptAsker: AskPrompts | null = null;
	private tls: TlsFor | null = null;

	constructor(
		private readonly app: App,
		private readonly settings: SettingsStore,
		pluginDir: string,
		private readonly noteLinks?: NoteLinks,
	) {
		this.historyPath = `${pluginDir}/history.sqlite`;
		this.runHistory = new DeferredHistory(
			() => this.openHistory(),
			(e) => notify(t("historyUnavailable", { reason: e instanceof Error ? e.message : String(e) })),
		);
	}

	/**
	 * History in a SQLite worker, so that recording a run never decodes or compiles sql.js on the
	 * main thread; on this thread only where no worker can start.
	 */
	private async openHistory(): Promise<RunHistoryStore> {
		const storage = vaultBinaryStorage(this.app.vault.adapter);
		const options = { onNotice: (_m: string, n: HistoryNotice) => notify(historyText(n), 10000) };
		// Required when history first opens (after the first run): main.js carries them as text modules.
		/* eslint-disable @typescript-eslint/no-require-imports -- see above */
		const { openWorkerHistory } = require("../runner/worker-history") as typeof WorkerHistory;
		const { HistoryStore } = require("../runner/history-store") as typeof HistoryStoreModule;
		/* eslint-enable @typescript-eslint/no-require-imports -- only those */
		return (await openWorkerHistory(blobWorker, storage, this.historyPath, options)) ?? HistoryStore.open(storage, this.historyPath, options);
	}

	transport(): Transport {
		const choice = this.settings.settings.general.transport;
		// Opt-in: streams and really cancels without Node, but only against servers that allow CORS.
		if (choice === "fetch") return this.fetchTransportOnce();
		if (!Platform.isDesktopApp || choice === "obsidian") return createObsidianTransport(requestUrl);
		return (this.nodeTransport ??= nodeTransportModule().createNodeTransport({ tls: this.tlsFor() }));
	}

	/** `[tls.*]` of user.toml, read as each request starts: PEM files of the vault, passphrases from Obsidian's secret storage. */
	private tlsFor(): TlsFor {
		return (this.tls ??= tlsFromSettings(() => this.settings.settings.tls, (path) => this.readText(path), (id) => this.app.secretStorage.getSecret(id) ?? undefined));
	}

	/** A vault file's text through the adapter (it reads dot files, which the vault does not list), or null when there is none. */
	private async readText(path: string): Promise<string | null> {
		const adapter = this.app.vault.adapter;
		const p = normalizePath(path);
		return (await adapter.exists(p)) ? adapter.read(p) : null;
	}

	/** The fetch transport, made once (required on first use: a text module). */
	private fetchTransportOnce(): Transport {
		return (this.fetchTransport ??= new (fetchTransportModule().FetchTransport)());
	}

	/** `{{[[Note]]#alias.…}}`: Obsidian's link resolution and the Notes service (src/ui/note-links.ts). */
	notes(): NoteLinks | undefined {
		return this.noteLinks;
	}

	history(): DeferredHistory {
		return this.runHistory;
	}

	/** Re-reads history when another process (the CLI, a sync) rewrites the file. Returns the unsubscribe. */
	watchHistory(): () => void {
		return watchConfigFile(this.app, this.historyPath, () => void this.runHistory.reload());
	}

	environment(): ActiveEnvironment {
		const s = this.settings.settings;
		const env = environmentVariables(s, s.general.environment, (id) => this.app.secretStorage.getSecret(id) ?? undefined);
		return { name: s.general.environment, variables: env.variables, secretValues: env.secretValues, secretNames: env.secretNames, unsetSecretNames: env.unsetSecretNames, auth: env.auth };
	}

	defaultTimeoutMs(): number {
		return this.settings.settings.general.timeout;
	}

	parallel(): number {
		return this.settings.settings.general.parallel;
	}

	/**
	 * `< file` body parts: vault files only (the core refuses paths that leave the vault). A
	 * snippet names them by their path on disk (desktop); mobile has no path a tool could read.
	 */
	files(): BodyFiles {
		const app = this.app;
		const adapter = app.vault.adapter;
		const base = Platform.isDesktopApp && adapter instanceof FileSystemAdapter ? adapter.getBasePath() : null;
		return {
			read: async (path) => ((await adapter.exists(path)) ? new Uint8Array(await adapter.readBinary(path)) : null),
			...(base !== null && { locate: (path: string) => (app.vault.getAbstractFileByPath(path) instanceof TFile ? `${base}/${path}` : null) }),
		};
	}

	/**
	 * Connections and drivers for db blocks: SQLite everywhere (a worker), PostgreSQL and MySQL
	 * on desktop. Also what schema completion reads (`services.db?.()`).
	 */
	db(): DbDeps {
		// Required on the first db block or schema lookup: main.js carries the drivers as a text module.
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
		this.database ??= new (require("./db/plugin-db") as typeof PluginDbModule).PluginDb(this.app, this.settings, this.runHistory);
		return this.database.deps();
	}

	/**
	 * What the kinds' runners need from the plugin: db blocks' connections and drivers, read
	 * through a getter so that only a db block's run requires the drivers' host (an http run never
	 * does), and SSE's streaming transport.
	 */
	kinds(): Partial<KindDeps> {
		const db = () => this.db();
		return {
			get db() {
				return db();
			},
			// SSE streams through fetch where the chosen transport cannot stream (requestUrl: mobile, or by choice).
			sse: { streamingTransport: () => this.fetchTransportOnce() },
			// A wss server's [tls.*], for `ws` (desktop; mobile's browser WebSocket uses the system's certificates).
			websocket: { tls: this.tlsFor() },
		};
	}

	/** `persist = true` tokens, kept in Obsidian's secret storage (docs/auth.md). */
	tokenStore(): TokenStore {
		return secretTokenStore(this.app.secretStorage);
	}

	/**
	 * The sign-ins that need a person (authorization code, device code): a modal, the system browser
	 * and the browser's return: a loopback redirect on desktop, the protocol handler's link on mobile.
	 * Required on the first such sign-in: main.js carries them as a text module.
	 */
	authInteraction(): InteractiveGrants {
		const grants = (): InteractiveGrants => {
			if (this.signIn) return this.signIn;
			// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
			const signIn = require("./auth/plugin-sign-in") as typeof PluginSignIn;
			this.redirects = new signIn.ProtocolRedirects();
			return (this.signIn = signIn.pluginSignInGrants(this.app, this.redirects));
		};
		return {
			authorizationCode: (auth, deps) => grants().authorizationCode!(auth, deps),
			deviceCode: (auth, deps) => grants().deviceCode!(auth, deps),
		};
	}

	/**
	 * An `obsidian://runnable-blocks-auth` link, passed on by the protocol handler `onload` registers:
	 * the browser's return to a sign-in waiting on mobile. Without one, a notice says so.
	 */
	receiveAuthRedirect(data: Readonly<Record<string, string>>): void {
		if (!this.redirects?.deliver(data)) notify(t("authNoSignInWaiting"));
	}

	/**
	 * `# @prompt`: a dialog as the block starts, its fields remembered for the session. Required on
	 * the first prompted block: main.js carries it as a text module.
	 */
	readonly ask: AskPrompts = (question, signal) => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
		this.promptAsker ??= (require("./prompt-modal") as typeof PromptModalModule).modalPromptAsker(this.app);
		return this.promptAsker(question, signal);
	};

	/** `{{$dotenv NAME}}`: the `.env` file in the note's folder. */
	dotenv(filePath: string): Promise<string | null> {
		return this.readText(`${filePath.slice(0, filePath.lastIndexOf("/") + 1)}.env`);
	}

	/** A poll's end: a notice, and a system notification when Obsidian is in the background. */
	pollEnded(_filePath: string, block: NoteBlock, result: BlockResult): void {
		announcePollEnd(block.alias ?? historyAlias(block), result);
	}

	/** `{{this.<name>}}` and `# @property`: the notes' front matter. */
	noteProperties(): NotePropertiesPort {
		return (this.properties ??= obsidianNoteProperties(this.app));
	}

	/** Writes pending history and closes sockets and database pools (plugin unload, through `engine.close()`). */
	async close(): Promise<void> {
		this.nodeTransport?.close();
		await Promise.all([this.runHistory.close(), this.database?.close()]);
	}
}

function historyText(n: HistoryNotice): string {
	return n.code === "moved_aside" ? t("historyMovedAside", { reason: n.reason, path: n.path }) : t("historyWriteFailed", { reason: n.reason });
}
