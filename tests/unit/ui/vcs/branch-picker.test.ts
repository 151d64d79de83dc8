/** @jest-environment jsdom */
import { installDomHelpers } from "../../../e2e/host/obsidian-shim";
import { BranchPicker, pickBranch } from "../../../../src/ui/vcs/branch-picker";
import type { BranchChoice, BranchRef } from "../../../../src/vcs";
import { createGitWorld, git, type GitWorld } from "../../../support/git";
import { modalApp, sessionOver, until } from "../../../support/vcs-session";

jest.mock("obsidian", () => jest.requireActual<object>("../../../e2e/host/obsidian-shim"));
jest.setTimeout(60_000);

installDomHelpers();
const app = modalApp();

const branch = (name: string, flags: Partial<BranchRef> = {}): BranchRef => ({ name, remote: false, current: false, upstream: null, ...flags });
const BRANCHES = [branch("main", { current: true, upstream: "origin/main" }), branch("archive"), branch("origin/main", { remote: true })];

const rows = () => [...document.querySelectorAll<HTMLElement>(".suggestion-item")];
const rowTexts = () => rows().map((r) => [...r.children].map((c) => c.textContent).join(" | "));
const input = () => document.querySelector<HTMLInputElement>(".prompt-input")!;
async function type(text: string) {
	input().value = text;
	input().dispatchEvent(new Event("input"));
	// The host draws the rows once it has awaited getSuggestions (synchronous here): a microtask later.
	await Promise.resolve();
	await Promise.resolve();
}

function openPicker(mode: "switch" | "create") {
	document.body.empty();
	const chosen: BranchChoice[] = [];
	new BranchPicker(app, BRANCHES, mode, (c) => chosen.push(c)).open();
	return chosen;
}

describe("BranchPicker", () => {
	it("lists local and remote branches, tagging the current one and the remote ones", async () => {
		openPicker("switch");
		await type("");
		expect(input().placeholder).toBe("Switch to a branch, or type a new name…");
		expect(rowTexts()).toEqual(["main | current", "archive", "origin/main | remote"]);
		expect(rows().every((r) => r.hasClass("rb-vcs-branch-choice"))).toBe(true);
	});

	it("narrows by the query and offers to create a name no local branch has", async () => {
		const chosen = openPicker("switch");
		await type("arch");
		expect(rowTexts()).toEqual(["archive", "Create branch “arch” from HEAD"]);
		expect([...rows()[0].querySelectorAll(".suggestion-highlight")].map((s) => s.textContent)).toEqual(["arch"]);
		rows()[1].click();
		expect(chosen).toEqual([{ kind: "create", name: "arch" }]);
		expect(document.querySelector(".modal")).toBeNull();
	});

	it("in create mode offers only the typed name, trimmed, and says what to type while empty", async () => {
		const chosen = openPicker("create");
		expect(input().placeholder).toBe("Name of the new branch…");
		await type("   ");
		expect(rows()).toEqual([]);
		expect(document.querySelector(".suggestion-empty")?.textContent).toBe("Type the name of the new branch.");
		await type(" main ");
		expect(rowTexts()).toEqual(["Create branch “main” from HEAD"]);
		rows()[0].click();
		expect(chosen).toEqual([{ kind: "create", name: "main" }]);
	});
});

describe("pickBranch", () => {
	let world: GitWorld;
	beforeAll(() => {
		world = createGitWorld();
		git(world.vault, "branch", "archive");
	});
	afterAll(() => world.cleanup());
	const current = () => git(world.vault, "branch", "--show-current").trim();

	it("switches to the chosen branch through the session, then calls done", async () => {
		document.body.empty();
		const session = sessionOver(world);
		let done = 0;
		await expect(pickBranch(app, session, "switch", () => done++)).resolves.toBeNull();
		await type("archive");
		await until(() => expect(rowTexts()[0]).toBe("archive"));
		rows()[0].click();
		await until(() => expect(done).toBe(1));
		expect(current()).toBe("archive");
	});

	it("creates the typed branch and switches to it", async () => {
		document.body.empty();
		const session = sessionOver(world);
		let done = 0;
		await pickBranch(app, session, "create", () => done++);
		await type("ideas");
		rows()[0].click();
		await until(() => expect(done).toBe(1));
		expect(current()).toBe("ideas");
	});

	it("keeps the picker closed and returns the failure when there is no repository", async () => {
		document.body.empty();
		const session = sessionOver(world, world.dir);
		const failure = await pickBranch(app, session, "switch", () => undefined);
		expect(failure?.code).toBe("not_repository");
		expect(document.querySelector(".modal")).toBeNull();
	});
});
