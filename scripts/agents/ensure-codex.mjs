// The Codex CLI end-to-end tests run the real `codex` (a native binary the package's platform optionalDependency
// ships; nothing is downloaded by a script). Pinned, installed from the npm registry into .tools/codex.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { installTool } from "../tools-install.mjs";

const VERSION = "0.171.0";
const dir = join(".tools", "codex");
const bin = join(dir, "node_modules", ".bin", "codex");
// Even `codex --version` writes helper links under its home: run it with a temp home, never the real ~/.codex.
const version = () => {
	const home = mkdtempSync(join(tmpdir(), "codex-version-"));
	try {
		return execFileSync(bin, ["--version"], {
			encoding: "utf8",
			stdio: ["ignore", "pipe", "ignore"],
			env: { ...process.env, HOME: home, CODEX_HOME: home },
		});
	} finally {
		rmSync(home, { recursive: true, force: true });
	}
};
const installed = () => {
	try {
		return version().includes(VERSION);
	} catch {
		return false;
	}
};
if (!existsSync(bin) || !installed()) {
	console.error(`installing @openai/codex@${VERSION} into .tools/codex for the Codex tests…`);
	installTool("codex", [`@openai/codex@${VERSION}`], { scripts: false });
}
version();
