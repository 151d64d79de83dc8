import type { NoteBlock } from "../blocks";
import { assertionsOf } from "./kind-outputs";
import type { BlockResult } from "../runner/result";

/** XML 1.0 text: the five entities escaped, characters XML cannot carry dropped. */
export function xmlText(s: string): string {
	return s
		// eslint-disable-next-line no-control-regex -- XML 1.0 cannot carry these control characters
		.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
		.replace(/&/g, "&amp;")
		.replace(/</g, "&lt;")
		.replace(/>/g, "&gt;")
		.replace(/"/g, "&quot;")
		.replace(/'/g, "&apos;");
}

/**
 * A JUnit XML report of a run (the de-facto format CI systems read: Jenkins, GitLab, GitHub
 * actions): one testsuite per block, one testcase per `??` assertion, a block that did not get
 * a response is one failed testcase (an error), a block without assertions one passed testcase.
 */
export function junitReport(file: string, runs: ReadonlyArray<{ block: NoteBlock; result: BlockResult }>): string {
	let tests = 0;
	let failures = 0;
	let errors = 0;
	const suites = runs.map(({ block, result }) => {
		const assertions = assertionsOf(result);
		const name = block.alias ?? `line ${block.fence.startLine + 1}`;
		const time = ((result.timing?.total ?? 0) / 1000).toFixed(3);
		const cases: string[] = [];
		let suiteFailures = 0;
		let suiteErrors = 0;
		if (result.state !== "done" && result.state !== "cached") {
			suiteErrors++;
			cases.push(`    <testcase name="${xmlText(`${name} runs`)}" classname="${xmlText(file)}" time="${time}">\n      <error message="${xmlText(result.error?.message ?? result.state)}" type="${xmlText(result.error?.code ?? result.state)}"/>\n    </testcase>`);
		} else if (!assertions?.length) {
			cases.push(`    <testcase name="${xmlText(`${name} runs`)}" classname="${xmlText(file)}" time="${time}"/>`);
		}
		for (const a of assertions ?? []) {
			const head = `    <testcase name="${xmlText(`line ${a.line}: ${a.text}`)}" classname="${xmlText(`${file} ${name}`)}" time="0">`;
			if (a.ok) cases.push(`${head}</testcase>`);
			else {
				suiteFailures++;
				cases.push(`${head}\n      <failure message="${xmlText(a.message ?? "failed")}" type="assertion">${xmlText(`actual: ${a.actual ?? "(none)"}`)}</failure>\n    </testcase>`);
			}
		}
		tests += cases.length;
		failures += suiteFailures;
		errors += suiteErrors;
		return `  <testsuite name="${xmlText(`${file} ${name}`)}" tests="${cases.length}" failures="${suiteFailures}" errors="${suiteErrors}" time="${time}">\n${cases.join("\n")}\n  </testsuite>`;
	});
	return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xmlText(file)}" tests="${tests}" failures="${failures}" errors="${errors}">\n${suites.join("\n")}\n</testsuites>\n`;
}
