// The test tools that are not devDependencies (omp and Bun, Node 22, the current Pi) are installed from the npm
// registry into a folder of their own under .tools/, each once.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** `npm install` of `packages` into `.tools/<name>` (its own package.json, no lock file); `scripts: false` skips install scripts. */
export function installTool(name, packages, { scripts = true } = {}) {
	const dir = join(".tools", name);
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, "package.json"), '{ "private": true }\n');
	const flags = ["--no-package-lock", ...(scripts ? [] : ["--ignore-scripts"]), "--no-audit", "--no-fund", "--loglevel=error"];
	execFileSync("npm", ["install", ...flags, ...packages], { cwd: dir, stdio: "inherit" });
}
