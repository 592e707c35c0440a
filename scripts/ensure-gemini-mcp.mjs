// The MCP end-to-end test runs the real Gemini CLI (pure JS, its model answers from a file given with
// --fake-responses, so no network) against `lookback mcp`. Installed from the registry into .tools/gemini-mcp,
// once; install scripts are skipped (its optional native modules, node-pty and keytar, are not needed).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { installTool } from "./tools-install.mjs";

const GEMINI_VERSION = "0.61.0";
const gemini = join(".tools", "gemini-mcp", "node_modules", "@google", "gemini-cli", "package.json");
if (!existsSync(gemini)) {
	console.error(`installing @google/gemini-cli@${GEMINI_VERSION} into .tools/gemini-mcp for the MCP end-to-end test…`);
	installTool("gemini-mcp", [`@google/gemini-cli@${GEMINI_VERSION}`], { scripts: false });
}
