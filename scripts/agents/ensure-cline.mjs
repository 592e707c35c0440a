// The Cline tests (test/agents/cline-cli.test.ts) run the real Cline CLI (`cline`), pinned, from the npm registry,
// installed into .tools/cline, with no install script.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { installTool } from "../tools-install.mjs";

const VERSION = "3.0.65";

const pkg = join(".tools", "cline", "node_modules", "cline", "package.json");
const installed = existsSync(pkg) ? JSON.parse(readFileSync(pkg, "utf8")).version : undefined;
if (installed !== VERSION) {
	console.error(`installing cline@${VERSION} into .tools/cline for the Cline tests…`);
	installTool("cline", [`cline@${VERSION}`], { scripts: false });
}
