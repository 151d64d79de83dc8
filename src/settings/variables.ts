import type { Settings } from "./user-settings";

/** A variable name as `{{name}}` can reference it. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/**
 * The id a secret variable is stored under in Obsidian's secret storage, which accepts
 * lowercase letters, digits and dashes only.
 */
export function secretId(environment: string, name: string): string {
	return `runnable-blocks-${environment}-${name}`
		.toLowerCase()
		.replace(/[^a-z0-9-]+/g, "-")
		.replace(/-+/g, "-")
		.replace(/-$/, "");
}

/** Environment names in user.toml order. */
export function environmentNames(settings: Settings): string[] {
	return Object.keys(settings.environments);
}
