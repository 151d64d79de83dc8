import { VARIABLE_NAME } from "../settings/variables";
import { UsageError } from "./usage";

/**
 * `--var NAME=VALUE` (repeatable): one-off values over the environment's for one run, as
 * httpyac's `--var`, Hurl's `--variable` and ijhttp's `-V` give. The value is everything after
 * the first `=` (it may hold `=` itself, or be empty); a later `--var` of a name wins, as a later
 * flag does. A name no `{{…}}` can read is a usage error, not a value silently never used.
 */
export function parseVarOptions(written: readonly string[] | undefined): Record<string, string> {
	const vars: Record<string, string> = {};
	for (const option of written ?? []) {
		const eq = option.indexOf("=");
		const name = eq === -1 ? option : option.slice(0, eq);
		if (eq === -1) throw new UsageError(`--var takes NAME=VALUE, not "${option}" (an empty value is written ${name}=)`);
		if (!VARIABLE_NAME.test(name)) throw new UsageError(`--var ${option}: "${name}" is not a variable name (a letter or _, then letters, digits, _ . -)`);
		vars[name] = option.slice(eq + 1);
	}
	return vars;
}
