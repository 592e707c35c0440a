/**
 * secretlint's rule preset is a devDependency (its 12.1 and later declare engines node >= 22; lookback's say 20), so
 * an installed lookback has it only as the build bundled it: dist/secretlint-preset.js. The sources loaded outside
 * the bundles (Pi's overlay, through Pi's jiti) load it from there: here core's sources, in a folder with no
 * node_modules, run through the jiti Pi uses, redact with it, and fail without it.
 */

import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "../agents.js";
import { tempDir } from "../helpers.js";

const JITI = join(REPO, "node_modules", "jiti", "lib", "jiti-cli.mjs");
const BUNDLED = join(REPO, "dist", "secretlint-preset.js");

describe("secretlint's preset, bundled", () => {
	it("is no dependency an install pulls in, and the build bundles it into dist/", () => {
		const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8"));
		expect(pkg.dependencies["@secretlint/secretlint-rule-preset-recommend"]).toBeUndefined();
		expect(pkg.devDependencies["@secretlint/secretlint-rule-preset-recommend"]).toBeDefined();
		expect(existsSync(BUNDLED)).toBe(true);
	});

	it("is what core's sources redact with where the package is not installed (Pi's jiti, no node_modules)", () => {
		const dir = tempDir("preset-bundled");
		mkdirSync(join(dir, "dist"));
		cpSync(join(REPO, "src", "core"), join(dir, "src", "core"), { recursive: true });
		cpSync(BUNDLED, join(dir, "dist", "secretlint-preset.js"));
		const key = `ghp_${"a1B2".repeat(9)}`;
		writeFileSync(
			join(dir, "run.ts"),
			`import { loadRedaction, redactText } from "./src/core/redact/index.js";\nawait loadRedaction();\nconsole.log(redactText("token ${key} here"));\n`,
		);
		const out = execFileSync(process.execPath, [JITI, "run.ts"], { cwd: dir, encoding: "utf8" });
		expect(out.trim()).toBe("token [REDACTED:github-token] here");
		rmSync(join(dir, "dist", "secretlint-preset.js"));
		expect(spawnSync(process.execPath, [JITI, "run.ts"], { cwd: dir, encoding: "utf8" }).status).not.toBe(0);
	});
});
