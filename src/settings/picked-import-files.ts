/**
 * The files the plugin's "Import .http file" picker returns, sorted by what they are: `.http` and
 * `.rest` files become notes; JetBrains' env files (`http-client.env.json` and
 * `http-client.private.env.json`, any `.json` really) bring their auth configurations
 * (jetbrains-auth.ts). A picker cannot see the files beside the one picked, as the CLI does, so
 * the user picks them together. Pure: names and texts in, the sorted files and one problem per
 * file not read out.
 */

export interface PickedFile {
	name: string;
	text: string;
}

export type PickedFileProblem =
	| { code: "unsupported"; file: string }
	| { code: "not_json"; file: string; detail: string }
	/** A second public (or private) env file: one of each is read, as the IDE reads one of each. */
	| { code: "second_env"; file: string; first: string };

export interface PickedImport {
	/** `.http`/`.rest` files, in the order picked. */
	httpFiles: PickedFile[];
	/** The parsed env files, each by its name; undefined when none was picked. */
	publicEnv?: { file: string; json: unknown };
	privateEnv?: { file: string; json: unknown };
	problems: PickedFileProblem[];
}

const HTTP_FILE = /\.(http|rest)$/i;
/** JetBrains names the private file `http-client.private.env.json`; a renamed copy keeps `.private.`. */
const PRIVATE_ENV = /\.private\.[^/]*json$|^private\.[^/]*json$/i;

/** Sorts the picked files; a file that cannot be read is a problem, never a reason to drop the others. */
export function sortPickedFiles(files: readonly PickedFile[]): PickedImport {
	const out: PickedImport = { httpFiles: [], problems: [] };
	for (const f of files) {
		if (HTTP_FILE.test(f.name)) {
			out.httpFiles.push(f);
			continue;
		}
		if (!/\.json$/i.test(f.name)) {
			out.problems.push({ code: "unsupported", file: f.name });
			continue;
		}
		const slot = PRIVATE_ENV.test(f.name) ? "privateEnv" : "publicEnv";
		const first = out[slot];
		if (first) {
			out.problems.push({ code: "second_env", file: f.name, first: first.file });
			continue;
		}
		try {
			out[slot] = { file: f.name, json: JSON.parse(f.text) as unknown };
		} catch (e) {
			out.problems.push({ code: "not_json", file: f.name, detail: e instanceof Error ? e.message : String(e) });
		}
	}
	return out;
}

/** The note's name for a `.http`/`.rest` file: its name without the extension. */
export const noteNameOf = (file: string): string => file.replace(HTTP_FILE, "");
