/** Retries an assertion until it holds (UI updates are asynchronous), for up to `timeoutMs`. */
export async function eventually(assertion: () => unknown, timeoutMs = 10_000): Promise<void> {
	const end = Date.now() + timeoutMs;
	for (;;) {
		try {
			await assertion();
			return;
		} catch (e) {
			if (Date.now() > end) throw e;
			await new Promise((r) => setTimeout(r, 100));
		}
	}
}
