import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";

/**
 * httpyac, installed on demand into bench/.cache (git-ignored): a comparison tool for tests
 * and benchmarks, never a dependency of the project.
 */
export function httpyacBin(): string {
	const dir = resolve(__dirname, "..", "..", "bench", ".cache", "httpyac");
	const bin = join(dir, "node_modules", ".bin", "httpyac");
	if (!existsSync(bin)) {
		mkdirSync(dir, { recursive: true });
		try {
			execFileSync("npm", ["install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error", "httpyac@6"], { stdio: ["ignore", "inherit", "inherit"], timeout: 300_000 });
		} catch (e) {
			throw new Error(`could not install httpyac from the npm registry into ${dir}: ${e instanceof Error ? e.message : String(e)}`);
		}
	}
	return bin;
}
