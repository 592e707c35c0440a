// The Qwen Code tests (test/agents/qwen-cli.test.ts) run the real Qwen Code CLI, pinned, from the npm registry,
// installed into .tools/qwen. It is one bundled script (cli.js) that needs Node >= 22: the tests run it with the
// pinned Node 22 (.tools/node22). Its native extras are optional and not needed for a prompt, so install scripts are
// skipped.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { installTool } from "../tools-install.mjs";

const VERSION = "0.24.4";

const pkg = join(".tools", "qwen", "node_modules", "@qwen-code", "qwen-code", "package.json");
const installed = existsSync(pkg) ? JSON.parse(readFileSync(pkg, "utf8")).version : undefined;
if (installed !== VERSION) {
	console.error(`installing @qwen-code/qwen-code@${VERSION} into .tools/qwen for the Qwen Code tests…`);
	installTool("qwen", [`@qwen-code/qwen-code@${VERSION}`], { scripts: false });
}
