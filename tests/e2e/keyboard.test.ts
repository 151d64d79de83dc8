import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eventually } from "./support/eventually";
import { launchPluginHost, USER_TOML, type Host } from "./support/host";

jest.setTimeout(120_000);


let host: Host;
const userToml = () => readFileSync(join(host.vaultDir, USER_TOML), "utf8");
const memToml = () => host.api((h, path) => h.files.get(path) ?? "", USER_TOML);

beforeAll(async () => {
	const toml = (url: string) => [
		"# Team settings — keep this comment",
		"[general]",
		'environment = "dev" # the default',
		"",
		"[environments.dev]",
		`base_url = "${url}/dev"`,
		"token = \"abc\"",
		"",
		"# production box",
		"[environments.prod]",
		`base_url = "${url}/prod"`,
		"",
		"# Global actions have no chord by default (Obsidian keeps its own): these tests bind them.",
		"[keymap]",
		'"search.blocks" = "Mod+K"',
		'"env.switch" = "Mod+E"',
		'"env.new_variable" = "Mod+Shift+V"',
		"",
	].join("\n");
	host = await launchPluginHost({ userToml: toml });
});

afterAll(async () => {
	await host?.close();
});

const note = (url: string) => ["# Notes", "", "```http alias=login", `POST ${url}/api/json`, "```", "", "```http alias=me", `GET {{base_url}}/api/json`, "", "```", "", "tail"].join("\n");

describe("settings page", () => {
	it("rebinds block.run by capturing a chord; user.toml on disk changes with its comments intact and the new chord runs", async () => {
		await host.api((h) => h.openSettings());
		const row = host.page.locator('.rb-keymap-row[data-action="block.run"]');
		await expect(row.locator(".rb-keymap-chord").textContent()).resolves.toBe("Ctrl+Enter");
		await row.locator(".rb-keymap-chord").click();
		await expect(row.locator(".rb-keymap-chord").textContent()).resolves.toBe("Press a chord…");
		await host.page.keyboard.press("Alt+J");
		await eventually(() => expect(userToml()).toContain('"block.run" = "Alt+J"'));
		const disk = userToml();
		expect(disk).toContain("# Team settings — keep this comment");
		expect(disk).toContain('environment = "dev" # the default');
		expect(disk).toContain("# production box");
		await host.page.locator('.rb-keymap-row[data-action="block.run"] .rb-keymap-chord', { hasText: "Alt+J" }).waitFor();

		await host.api((h, md) => h.openEditor(md), note(host.url));
		await host.page.locator(".cm-line", { hasText: "POST" }).click();
		await host.page.keyboard.press("Alt+J");
		await host.page.locator(".rb-editor-panel .rb-status").first().waitFor();
		await expect(host.page.locator(".rb-editor-panel .rb-status").first().textContent()).resolves.toMatch(/^200/);
	});

	it("Mod+. cancels the running block; outside a block it falls through", async () => {
		await host.api((h, md) => h.openEditor(md), `\`\`\`http alias=slow\nGET ${host.url}/api/slow\n\`\`\`\n\nplain text`);
		await host.page.locator(".cm-line", { hasText: "api/slow" }).click();
		await host.page.keyboard.press("Alt+J");
		await host.page.locator('.rb-editor-panel .rb-panel[data-state="running"]').waitFor();
		await host.page.keyboard.press("Control+.");
		await host.page.locator('.rb-editor-panel .rb-panel[data-state="cancelled"]').waitFor();
		await expect(host.page.locator(".rb-editor-panel .rb-error").textContent()).resolves.toBe("[cancelled]");
		await host.page.locator(".cm-line", { hasText: "plain text" }).click();
		await host.page.keyboard.press("Control+.");
		await expect(host.api((h) => h.fellThrough.includes("Mod-."))).resolves.toBe(true);
	});

	it("shows conflicts with our own actions and with Obsidian's hotkeys", async () => {
		await host.api((h) => h.openSettings());
		await expect(host.page.locator('.rb-keymap-row[data-action="env.switch"] .rb-keymap-conflict').textContent()).resolves.toBe("Shadows Obsidian's “Toggle reading view”.");
		await expect(host.page.locator('.rb-keymap-row[data-action="env.switch"]').getAttribute("data-source")).resolves.toBe("user");
		const row = host.page.locator('.rb-keymap-row[data-action="block.cancel"]');
		await row.locator(".rb-keymap-chord").click();
		await host.page.keyboard.press("Alt+J");
		await host.page.locator('.rb-keymap-row[data-action="block.cancel"] .rb-keymap-conflict', { hasText: "block.run" }).waitFor();
		// Reset to default removes the override line again.
		await host.page.locator('.rb-keymap-row[data-action="block.cancel"] .extra-setting-button').click();
		await eventually(() => expect(userToml()).not.toContain('"block.cancel"'));
	});

	it("adds, edits and deletes environments and variables through user.toml", async () => {
		await host.api((h) => h.openSettings());
		await host.page.locator(".setting-item", { hasText: "New environment" }).locator("button").click();
		await host.page.locator(".rb-new-variable-env").fill("staging");
		await host.page.locator(".rb-new-variable-name").fill("api_key");
		await host.page.locator(".rb-new-variable-value").fill("s3cret");
		await host.page.locator(".modal .checkbox-container").click();
		await host.page.locator(".modal button", { hasText: "Add variable" }).click();
		await eventually(() => expect(userToml()).toContain('api_key = { secret = "runnable-blocks-staging-api-key" }'));
		expect(userToml()).not.toContain("s3cret");
		await expect(host.api((h) => h.secrets.get("runnable-blocks-staging-api-key"))).resolves.toBe("s3cret");
		const staging = host.page.locator(".rb-env-row", { hasText: "staging" });
		await staging.locator("input").fill("qa");
		await staging.locator("button", { hasText: "Rename" }).click();
		await eventually(() => expect(userToml()).toContain("[environments.qa]"));
		expect(userToml()).not.toContain("[environments.staging]");
		await host.page.locator(".rb-env-row", { hasText: "qa" }).locator(".extra-setting-button").click();
		await eventually(() => expect(userToml()).not.toContain("[environments.qa]"));
		expect(userToml()).toContain("# production box");
	});

	it("a setting that cannot be written while user.toml is broken leaves the file alone", async () => {
		const good = userToml();
		const broken = '[general\nenvironment = "dev"\n';
		await host.api((h, t) => h.writeFile(".obsidian/plugins/runnable-blocks/user.toml", t), broken);
		await host.api((h) => h.runCommand("reload-settings"));
		await eventually(async () => expect(await host.api((h) => h.notices.join("\n"))).toMatch(/user\.toml:1:\d+: .*The last good settings stay in force/s));
		await host.api((h) => h.openSettings());
		await host.page.locator('.rb-keymap-row[data-action="search.blocks"] .rb-keymap-chord').click();
		await host.page.keyboard.press("Alt+L");
		await eventually(async () => expect(await host.api((h) => h.notices.join("\n"))).toContain("does not parse, so it was not changed"));
		await expect(memToml()).resolves.toBe(broken);
		expect(userToml()).toBe(broken);
		// Put the good file back for the rest of the suite.
		await host.api((h, t) => h.writeFile(".obsidian/plugins/runnable-blocks/user.toml", t), good);
		await host.api((h) => h.runCommand("reload-settings"));
	});
});

describe("slash commands and {{ completion", () => {
	it("/HTTP POST + Enter inserts the template with the cursor on the URL line", async () => {
		await host.api((h) => h.openEditor("Intro\n\n"));
		await host.page.locator(".cm-content").click();
		await host.page.keyboard.press("Control+End");
		await host.page.keyboard.type("/HTTP POST");
		await host.page.locator(".suggestion-container .suggestion-item", { hasText: "HTTP POST" }).first().waitFor();
		await host.page.keyboard.press("Enter");
		const text = await host.api((h) => h.editorText());
		expect(text).toMatch(/^Intro\n\n```http\nPOST /m);
		const lines = text.split("\n");
		expect(lines[await host.api((h) => h.editorCursorLine())]).toMatch(/^POST /);
		await expect(host.page.locator(".suggestion-container").count()).resolves.toBe(0);
	});

	it("steps aside once the query matches no template, leaving / to Obsidian's own slash commands", async () => {
		await host.api((h) => h.openEditor("x\n"));
		await host.page.locator(".cm-content").click();
		await host.page.keyboard.press("Control+End");
		await host.page.keyboard.type("/");
		await host.page.locator(".suggestion-container .suggestion-item").first().waitFor();
		await host.page.keyboard.type("bold");
		await eventually(async () => expect(await host.page.locator(".suggestion-container").count()).toBe(0));
		await expect(host.api((h) => h.editorText())).resolves.toBe("x\n/bold");
	});

	it("a / in the middle of a line opens nothing", async () => {
		await host.api((h) => h.openEditor("see "));
		await host.page.locator(".cm-content").click();
		await host.page.keyboard.press("Control+End");
		await host.page.keyboard.type("a/b");
		await expect(host.page.locator(".suggestion-container").count()).resolves.toBe(0);
	});

	it("{{ lists aliases and variables with hints; Tab completes; Esc leaves the text untouched", async () => {
		await host.api((h, md) => h.openEditor(md), note(host.url));
		// A result for `login` first, so its completion says (cached).
		await host.page.locator(".cm-line", { hasText: "POST" }).click();
		await host.page.keyboard.press("Alt+J");
		await host.page.locator('.rb-editor-panel .rb-panel[data-state="done"]').first().waitFor();
		// The empty line inside the `me` block.
		await host.page.locator(".cm-line", { hasText: "GET {{base_url}}" }).click();
		await host.page.keyboard.press("End");
		await host.page.keyboard.press("ArrowDown");
		await host.page.keyboard.type("X-Token: {{");
		const items = host.page.locator(".suggestion-container .suggestion-item");
		await items.first().waitFor();
		const all = (await items.allTextContents()).join("|");
		expect(all).toContain("login.response.body.$. (cached)");
		expect(all).toMatch(/token \(env\)/);
		expect(all).toMatch(/base_url \(env\)/);
		await host.page.keyboard.type("tok");
		await eventually(async () => expect(await items.allTextContents()).toEqual([expect.stringMatching(/^token/)]));
		await host.page.keyboard.press("Tab");
		await expect(host.api((h) => h.editorText())).resolves.toContain("X-Token: {{token}}");
		await expect(host.page.locator(".suggestion-container").count()).resolves.toBe(0);

		await host.page.keyboard.press("Enter");
		await host.page.keyboard.type("X-Other: {{lo");
		await items.first().waitFor();
		const before = await host.api((h) => h.editorText());
		await host.page.keyboard.press("Escape");
		await expect(host.page.locator(".suggestion-container").count()).resolves.toBe(0);
		await expect(host.api((h) => h.editorText())).resolves.toBe(before);
	});
});

describe("global actions", () => {
	it("Mod+E switches the environment, the status bar follows, and the next run uses it", async () => {
		await host.api((h, md) => h.openEditor(md), note(host.url));
		await expect(host.page.locator(".rb-env-status").textContent()).resolves.toBe("env: dev");
		await host.page.keyboard.press("Control+e");
		await host.page.locator(".modal .prompt-input").fill("pro");
		await host.page.locator(".modal .suggestion-item", { hasText: "prod" }).waitFor();
		await host.page.keyboard.press("Enter");
		await eventually(async () => expect(await host.page.locator(".rb-env-status").textContent()).toBe("env: prod"));
		await eventually(() => expect(userToml()).toContain('environment = "prod" # the default'));
		await host.page.locator(".cm-line", { hasText: "GET {{base_url}}" }).click();
		await host.page.keyboard.press("Alt+J");
		await eventually(() => expect(host.hits).toContain("/prod/api/json"));
		expect(host.hits).not.toContain("/dev/api/json");
	});

	it("clicking the status bar opens the switcher", async () => {
		await host.page.locator(".rb-env-status").click();
		await host.page.locator(".modal .suggestion-item", { hasText: "dev" }).click();
		await eventually(async () => expect(await host.page.locator(".rb-env-status").textContent()).toBe("env: dev"));
	});

	it("Mod+Shift+V adds a variable to the active environment", async () => {
		await host.page.keyboard.press("Control+Shift+V");
		await host.page.locator(".rb-new-variable-name").fill("user_id");
		await host.page.locator(".rb-new-variable-value").fill("42");
		await host.page.keyboard.press("Enter");
		await eventually(() => expect(userToml()).toMatch(/\[environments\.dev\][^[]*user_id = "42"/));
	});

	it("Mod+K searches blocks across the vault and opens the note at the block", async () => {
		await host.api((h) => h.writeFile("other/Bookshop.md", "Intro\n\n```http alias=list_books\nGET {{base_url}}/books\n```\n"));
		await host.page.keyboard.press("Control+k");
		await host.page.locator(".modal .prompt-input").fill("list bo");
		await host.page.locator(".modal .suggestion-item", { hasText: "list_books" }).waitFor();
		await expect(host.page.locator(".modal .suggestion-item").first().locator(".suggestion-highlight").count()).resolves.toBeGreaterThan(0);
		await host.page.keyboard.press("Enter");
		await eventually(async () => expect(await host.api((h) => h.editorText())).toContain("alias=list_books"));
		await expect(host.api((h) => h.editorCursorLine())).resolves.toBe(2);
	});
});

describe("go to block N", () => {
	it("is unbound by default and works once bound in user.toml", async () => {
		await host.api((h, md) => h.openEditor(md), note(host.url));
		await host.page.locator(".cm-line", { hasText: "tail" }).click();
		await host.page.keyboard.press("Alt+2");
		await expect(host.api((h) => h.editorCursorLine())).resolves.toBe(11);
		const toml = userToml().replace("[keymap]\n", '[keymap]\n"block.goto.2" = "Alt+2"\n');
		expect(toml).toContain('"block.goto.2" = "Alt+2"');
		// An edit of user.toml outside the plugin is picked up without the reload command.
		await host.api((h, t) => h.writeFile(".obsidian/plugins/runnable-blocks/user.toml", t), toml);
		await host.page.locator(".cm-line", { hasText: "tail" }).click();
		await host.page.keyboard.press("Alt+2");
		await eventually(async () => expect(await host.api((h) => h.editorCursorLine())).toBe(6));
	});
});

describe("vim", () => {
	it(":run-all runs every block of the note; :env with an unknown name lists the environments", async () => {
		await host.api((h) => h.runCommand("set-vim"));
		await expect(host.api((h) => h.config.vimMode)).resolves.toBe(true);
		await host.api((h, md) => h.openEditor(md), note(host.url).replace("alias=login", "alias=login2"));
		await host.page.locator(".cm-content").click();
		await host.page.keyboard.press("Escape");
		await host.page.keyboard.type(":run-all");
		await host.page.keyboard.press("Enter");
		await eventually(async () => expect(await host.page.locator(".rb-editor-panel .rb-status").count()).toBe(2));
		await host.page.keyboard.type(":env nowhere");
		await host.page.keyboard.press("Enter");
		await eventually(async () => expect(await host.api((h) => h.notices.join("\n"))).toContain("No environment “nowhere”. Environments: dev, prod."));
		await host.api((h) => h.runCommand("set-vim"));
	});
});
