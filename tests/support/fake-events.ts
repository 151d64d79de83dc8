export type Handler = (...args: unknown[]) => void;
export type FakeEventRef = { e: { offref(ref: FakeEventRef): void }; name: string; fn: Handler };

/**
 * on() and offref() over one table of handlers, for a test's vault or workspace. Each ref names
 * its Events object, as Obsidian's refs do: Component.registerEvent takes the handler off through
 * it when the component unloads.
 */
export function eventsOver(handlers: Map<string, Handler[]>): { on: (name: string, fn: Handler) => FakeEventRef; offref: (ref: FakeEventRef) => void } {
	const events = {
		on: (name: string, fn: Handler): FakeEventRef => {
			handlers.set(name, [...(handlers.get(name) ?? []), fn]);
			return { e: events, name, fn };
		},
		offref: (ref: FakeEventRef) => void handlers.set(ref.name, (handlers.get(ref.name) ?? []).filter((h) => h !== ref.fn)),
	};
	return events;
}
