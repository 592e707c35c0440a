// The Codex CLI end-to-end tests run the real `codex` (a native binary the package's platform optionalDependency
// ships; nothing is downloaded by a script). Pinned, installed from the npm registry into .tools/codex.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { installTool } from "../tools-install.mjs";

const VERSION = "0.171.0";
const dir = join(".tools", "codex");
const bin = join(dir, "node_modules", ".bin", "codex");
const installed = () => {
	try {
		return execFileSync(bin, ["--version"], { encoding: "utf8" }).includes(VERSION);
	} catch {
		return false;
	}
};
if (!existsSync(bin) || !installed()) {
	console.error(`installing @openai/codex@${VERSION} into .tools/codex for the Codex tests…`);
	installTool("codex", [`@openai/codex@${VERSION}`], { scripts: false });
}
execFileSync(bin, ["--version"], { stdio: "ignore" });
