/**
 * Runs `steps` in order, one per task of the page (each after a `setTimeout` 0), so that none of
 * them shares a task with the others or with what queued them. Returns what cancels the steps
 * not run yet.
 */
export function oneTaskEach(steps: ReadonlyArray<() => void>): () => void {
	const left = [...steps];
	let timer: number | null = null;
	const next = () => {
		timer = left.length > 0 ? window.setTimeout(() => (left.shift()?.(), next()), 0) : null;
	};
	next();
	return () => {
		if (timer !== null) window.clearTimeout(timer);
		timer = null;
	};
}
