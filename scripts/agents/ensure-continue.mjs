// The Continue tests (test/agents/continue-cli.test.ts) run the real Continue CLI (`cn`), pinned, from the npm registry,
// installed into .tools/continue. It is plain JavaScript (dist/cn.js); its native extras are optional and not needed for
// `cn -p`, so install scripts are skipped.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { installTool } from "../tools-install.mjs";

const VERSION = "1.5.47";

const pkg = join(".tools", "continue", "node_modules", "@continuedev", "cli", "package.json");
const installed = existsSync(pkg) ? JSON.parse(readFileSync(pkg, "utf8")).version : undefined;
if (installed !== VERSION) {
	console.error(`installing @continuedev/cli@${VERSION} into .tools/continue for the Continue tests…`);
	installTool("continue", [`@continuedev/cli@${VERSION}`], { scripts: false });
}
