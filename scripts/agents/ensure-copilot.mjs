// The GitHub Copilot CLI tests (test/agents/copilot-cli.test.ts) run the real Copilot CLI, pinned, from the npm
// registry, installed into .tools/copilot: its native binary comes in the platform package
// (@github/copilot-<os>-<arch>), installed by name beside the placeholder package, with no install script.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { installTool } from "../tools-install.mjs";

const VERSION = "1.0.102";
const platform = `@github/copilot-${process.platform}-${process.arch}`;

const pkg = join(".tools", "copilot", "node_modules", ...platform.split("/"), "package.json");
const installed = existsSync(pkg) ? JSON.parse(readFileSync(pkg, "utf8")).version : undefined;
if (installed !== VERSION) {
	console.error(`installing @github/copilot@${VERSION} into .tools/copilot for the Copilot CLI tests…`);
	installTool("copilot", [`@github/copilot@${VERSION}`, `${platform}@${VERSION}`], { scripts: false });
}
