// The Gemini CLI tests (test/agents/gemini-cli.test.ts) run the real Gemini CLI, pinned, from the npm registry,
// installed into .tools/gemini. It is plain JavaScript (bundle/gemini.js); its native extras (node-pty, keytar)
// are optional and not needed for `gemini -p`, so install scripts are skipped. Its hidden --fake-responses flag
// replays model answers from a file, so no model server is needed.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { installTool } from "../tools-install.mjs";

export const GEMINI_VERSION = "0.61.0";

const pkg = join(".tools", "gemini", "node_modules", "@google", "gemini-cli", "package.json");
const installed = existsSync(pkg) ? JSON.parse(readFileSync(pkg, "utf8")).version : undefined;
if (installed !== GEMINI_VERSION) {
	console.error(`installing @google/gemini-cli@${GEMINI_VERSION} into .tools/gemini for the Gemini CLI tests…`);
	installTool("gemini", [`@google/gemini-cli@${GEMINI_VERSION}`], { scripts: false });
}
execFileSync(process.execPath, [join(".tools", "gemini", "node_modules", "@google", "gemini-cli", "bundle", "gemini.js"), "--version"], {
	stdio: "ignore",
});
