/** Statements for driver tests, made the way the runner makes them: split, then references bound as parameters. */
import { bindReferences, splitStatements, type SqlDialect } from "../../src/blocks/db-sql";
import type { BoundStatement } from "../../src/runner/db/driver";

export function bound(sql: string, dialect: SqlDialect, values: Record<string, string> = {}): BoundStatement[] {
	return splitStatements(sql, dialect).map((s) => {
		const b = bindReferences(s.text, dialect);
		if (!b.ok) throw new Error(b.error.message);
		return {
			text: b.text,
			kind: s.kind,
			params: b.references.map((r) => {
				if (!(r.reference.inner in values)) throw new Error(`no test value for ${r.reference.text}`);
				return values[r.reference.inner];
			}),
		};
	});
}

export const opts = (extra: { timeoutMs?: number; maxRows?: number; signal?: AbortSignal } = {}) => ({ timeoutMs: 20000, maxRows: 1000, ...extra });

/** The outcome's `done` fields, or a test failure that shows what happened instead. */
export function done<T extends { kind: string }>(outcome: T): Extract<T, { kind: "done" }> {
	if (outcome.kind !== "done") throw new Error(`expected done, got ${JSON.stringify(outcome)}`);
	return outcome as Extract<T, { kind: "done" }>;
}
