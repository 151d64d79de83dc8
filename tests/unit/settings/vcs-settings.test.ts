import { formatProblem, parseSettings } from "../../../src/settings/user-settings";
import { commitTemplateProblem } from "../../../src/settings/vcs-settings";

const read = (text: string) => {
	const r = parseSettings(text);
	if (!r.ok) throw new Error("expected the file to parse");
	return r;
};

describe("[vcs] in user.toml", () => {
	it("reads commit_template", () => {
		const r = read('[vcs]\ncommit_template = "Notes {date}: {notes} ({count})"\n');
		expect(r.errors).toEqual([]);
		expect(r.settings.vcs.commitTemplate).toBe("Notes {date}: {notes} ({count})");
	});

	it("keeps the built-in message (empty template) when the key is absent", () => expect(read("[vcs]\n").settings.vcs.commitTemplate).toBe(""));

	it.each([
		['commit_template = "Notes {dat}"', 'user.toml:2:19: vcs.commit_template: unknown placeholder {dat} (known: {date}, {notes}, {count})'],
		['commit_template = "  "', "user.toml:2:19: vcs.commit_template: must not be empty (remove the key for the default message)"],
		["commit_template = 3", 'user.toml:2:19: vcs.commit_template: must be a string such as "Notes {date}: {notes}" (got 3)'],
	])("refuses %s with its position, keeping the default", (line, message) => {
		const r = read(`[vcs]\n${line}\n`);
		expect(r.errors.map(formatProblem)).toEqual([message]);
		expect(r.settings.vcs.commitTemplate).toBe("");
	});

	it("warns about an unknown key in [vcs]", () => {
		const r = read('[vcs]\ncommit_template = "x {notes}"\nauto_push = true\n');
		expect(r.warnings.map(formatProblem)).toEqual(['user.toml:3:13: vcs.auto_push: unknown key "auto_push" is kept but ignored']);
		expect(r.settings.vcs.commitTemplate).toBe("x {notes}");
	});
});

describe("commitTemplateProblem", () => {
	it("accepts templates with known placeholders, none, or several lines", () => {
		for (const t of ["{date}", "Vault backup", "Notes {date}\n\n{count} files: {notes}"]) expect(commitTemplateProblem(t)).toBeNull();
	});

	it("names the first unknown placeholder, empty braces included", () => {
		expect(commitTemplateProblem("{date} {Notes}")).toBe("unknown placeholder {Notes} (known: {date}, {notes}, {count})");
		expect(commitTemplateProblem("a {} b")).toBe("unknown placeholder {} (known: {date}, {notes}, {count})");
	});
});

describe("[vcs] auto_sync_minutes", () => {
	it("is off (0) unless set, and reads a whole number of minutes", () => {
		expect(read("[vcs]\n").settings.vcs.autoSyncMinutes).toBe(0);
		expect(read("[vcs]\nauto_sync_minutes = 15\n").settings.vcs.autoSyncMinutes).toBe(15);
	});

	it.each([
		["auto_sync_minutes = -1", "user.toml:2:21: vcs.auto_sync_minutes: must be a whole number of minutes from 1 to 1440, or 0 for off (got -1)"],
		["auto_sync_minutes = 2.5", "user.toml:2:21: vcs.auto_sync_minutes: must be a whole number of minutes from 1 to 1440, or 0 for off (got 2.5)"],
		['auto_sync_minutes = "5"', 'user.toml:2:21: vcs.auto_sync_minutes: must be a whole number of minutes from 1 to 1440, or 0 for off (got "5")'],
	])("refuses %s with its position, staying off", (line, message) => {
		const r = read(`[vcs]\n${line}\n`);
		expect(r.errors.map(formatProblem)).toEqual([message]);
		expect(r.settings.vcs.autoSyncMinutes).toBe(0);
	});
});
