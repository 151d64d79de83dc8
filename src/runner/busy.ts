import type { RunCommon } from "./result";
import { isActive } from "./state-machine";

/**
 * A run the user can Stop: a request in flight, or a poll waiting for its next attempt. Apart from
 * poll.ts, which is a text module loaded by the first polled block, so that the session and the
 * panel can ask it of every run without loading the poll.
 */
export function isBusy(snapshot: Pick<RunCommon, "state" | "poll">): boolean {
	return isActive(snapshot.state) || snapshot.poll?.phase === "waiting";
}
