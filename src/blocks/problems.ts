/**
 * A problem found in a block. `line` and `column` are 0-based: within the block content, or in
 * the note once mapped; `column` is where the faulty word starts (0 when the whole line is at fault).
 */
export interface BlockProblem {
	code: ProblemCode;
	message: string;
	line: number;
	column: number;
	severity: "error" | "warning";
}

export type ProblemCode =
	| "duplicate_token"
	| "invalid_token_value"
	| "unknown_token"
	| "duplicate_alias"
	| "empty_block"
	| "missing_request_line"
	| "unknown_method"
	| "invalid_method"
	| "missing_url"
	| "invalid_header"
	| "invalid_reference"
	| "unterminated_fence"
	| "unclosed_handler"
	| "script_not_run"
	| "run_not_read" // kulala's `run #name` / `run ./file.http` before the request line: reported, nothing else is run
	| "import_not_read" // kulala's `import ./file.http`: reported, nothing is imported
	| "missing_separator"
	| "invalid_directive"; // a malformed `# @property` or `# @poll` (memory-directives.ts)

export function error(code: ProblemCode, message: string, line: number, column = 0): BlockProblem {
	return { code, message, line, column, severity: "error" };
}

export function warning(code: ProblemCode, message: string, line: number, column = 0): BlockProblem {
	return { code, message, line, column, severity: "warning" };
}

export function hasErrors(problems: readonly BlockProblem[]): boolean {
	for (let k = 0; k < problems.length; k++) if (problems[k].severity === "error") return true;
	return false;
}
