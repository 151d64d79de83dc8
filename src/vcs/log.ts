/** `git log` read into commits; fields split by US (0x1f), commits by NUL, so no subject can break the format. */

export interface CommitInfo {
	hash: string;
	shortHash: string;
	author: string;
	/** Seconds since the epoch (author date). */
	time: number;
	subject: string;
}

/** The `--format` that parseLog reads. */
export const LOG_FORMAT = "--format=%H%x1f%h%x1f%an%x1f%at%x1f%s";

/** How many commits the panel shows at first and adds per "more". */
export const LOG_PAGE = 50;

export function parseLog(output: string): CommitInfo[] {
	return output
		.split("\0")
		.map((r) => r.replace(/^\n/, ""))
		.filter((r) => r !== "")
		.map((record) => {
			const [hash, shortHash, author, time, subject] = record.split("\x1f");
			return { hash, shortHash, author, time: Number(time), subject: subject ?? "" };
		});
}
