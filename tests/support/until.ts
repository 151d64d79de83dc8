/**
 * Waits, one task at a time, until `condition` holds: for work that settles over a few awaits
 * (a user.toml patch, a notice after a read) and signals nothing a spec could subscribe to. No
 * fixed delay; jest's own timeout ends a wait that never comes.
 */
export async function until(condition: () => boolean): Promise<void> {
	while (!condition()) await new Promise((r) => setTimeout(r, 0));
}
