// The other agents' real CLIs (Claude Code, Codex, Gemini CLI, OpenCode), each pinned and installed from the npm
// registry into .tools/<agent> by its own script in scripts/agents/ (run here in turn; each installs once).
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";

for (const name of readdirSync(join("scripts", "agents"))
	.filter((n) => /^ensure-.*\.mjs$/.test(n))
	.sort()) {
	execFileSync(process.execPath, [join("scripts", "agents", name)], { stdio: "inherit" });
}
