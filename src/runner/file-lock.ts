import type { BinaryStorage } from "./binary-storage";

/** Who holds a lock: written into the lock file as JSON. */
export interface LockOwner {
	pid: number;
	/** The machine, so a process id is only judged on the machine that owns it (synced vaults). */
	host: string;
	/** Epoch ms when it was taken. */
	time: number;
}

export interface LockOptions {
	owner: Omit<LockOwner, "time">;
	/** A lock older than this is stale: a history write takes milliseconds. */
	staleMs?: number;
	/** Give up after waiting this long for a live lock. */
	timeoutMs?: number;
	/**
	 * How long a lock may stay unreadable before it counts as stale. A lock is created empty and
	 * written a moment later: read in between, it is another writer's lock in the making, and
	 * taking it over let two writers in at once (a history row lost under load).
	 */
	unreadableMs?: number;
	/** Whether a process of this machine still runs (Node: `process.kill(pid, 0)`); absent where unknown. */
	isAlive?: (pid: number) => boolean;
	now?: () => number;
	sleep?: (ms: number) => Promise<void>;
}

const encoder = new TextEncoder();

function parseOwner(bytes: Uint8Array | null): LockOwner | null {
	if (!bytes) return null;
	try {
		const o = JSON.parse(new TextDecoder().decode(bytes)) as Partial<LockOwner>;
		return typeof o.pid === "number" && typeof o.time === "number" ? { pid: o.pid, host: String(o.host ?? ""), time: o.time } : null;
	} catch {
		return null;
	}
}

/**
 * Runs `fn` holding an advisory lock file (`<path>.lock`, created exclusively). A lock is stale
 * when it stays unreadable for `unreadableMs`, is older than `staleMs`, or held by a process of this machine that no
 * longer runs (a killed writer); a stale lock is removed and taken. Two writers that find the
 * same stale lock at the same moment can both proceed; each writes a temp file of its own and
 * re-reads under the lock, so the worst case is one redundant write, never a broken file.
 */
export async function withFileLock<T>(storage: BinaryStorage, path: string, fn: () => Promise<T>, options: LockOptions): Promise<T> {
	const lockPath = `${path}.lock`;
	const now = options.now ?? Date.now;
	const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
	const staleMs = options.staleMs ?? 15_000;
	const started = now();
	let unreadableSince: number | null = null;
	for (;;) {
		const mine: LockOwner = { ...options.owner, time: now() };
		if (await storage.createExclusive(lockPath, encoder.encode(JSON.stringify(mine)))) break;
		const holder = parseOwner(await storage.read(lockPath));
		if (holder === null) {
			unreadableSince ??= now();
			if (now() - unreadableSince > (options.unreadableMs ?? 1_000)) {
				await storage.remove(lockPath);
				unreadableSince = null;
				continue;
			}
			await sleep(5 + Math.random() * 20);
			continue;
		}
		unreadableSince = null;
		const dead = holder.host === options.owner.host && holder.pid > 0 && options.isAlive !== undefined && !options.isAlive(holder.pid);
		if (dead || now() - holder.time > staleMs) {
			await storage.remove(lockPath);
			continue;
		}
		if (now() - started > (options.timeoutMs ?? 10_000)) throw new Error(`${path} is locked by process ${holder.pid} (${lockPath})`);
		await sleep(5 + Math.random() * 20);
	}
	try {
		return await fn();
	} finally {
		await storage.remove(lockPath);
	}
}
