// The current Pi release, @earendil-works/pi-coding-agent (it aliases the @mariozechner/* imports extensions
// use), needs Node >= 22.19: the end-to-end tests run it on the Node 22 of .tools/node22 beside Pi 0.73.1 (the
// devDependency, on Node 20). Installed from the registry into .tools/pi-current, without install scripts.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { installTool } from "./tools-install.mjs";

const VERSION = "1.6.0";
const dir = join(".tools", "pi-current");
const cli = join(dir, "node_modules", "@earendil-works", "pi-coding-agent", "package.json");
if (!existsSync(cli)) {
	console.error(`installing @earendil-works/pi-coding-agent@${VERSION} into .tools/pi-current for the end-to-end tests…`);
	installTool("pi-current", [`@earendil-works/pi-coding-agent@${VERSION}`], { scripts: false });
}
