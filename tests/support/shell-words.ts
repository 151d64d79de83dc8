/** POSIX shell word splitting for the subset our quoting produces (bare words and '...' with '\''). */
export function shellWords(cmd: string): string[] {
	const words: string[] = [];
	let cur = "";
	let inWord = false;
	for (let i = 0; i < cmd.length; i++) {
		const c = cmd[i];
		if (c === "'") {
			const end = cmd.indexOf("'", i + 1);
			cur += cmd.slice(i + 1, end);
			i = end;
			inWord = true;
		} else if (c === "\\") {
			cur += cmd[++i];
			inWord = true;
		} else if (c === " ") {
			if (inWord) words.push(cur);
			cur = "";
			inWord = false;
		} else {
			cur += c;
			inWord = true;
		}
	}
	if (inWord) words.push(cur);
	return words;
}
