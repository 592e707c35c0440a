// Claude Code for the end-to-end tests: installed from the registry into .tools/claude, pinned. Its package is a
// placeholder whose install script copies the native binary out of the platform package; the platform package is
// installed by name (npm may drop platform optionalDependencies) and its binary run directly, with no script.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { installTool } from "../tools-install.mjs";

const VERSION = "2.1.332";
const platform = `@anthropic-ai/claude-code-${process.platform}-${process.arch === "x64" ? "x64" : "arm64"}`;
const dir = join(".tools", "claude");
if (!existsSync(join(dir, "node_modules", ...platform.split("/"), "package.json"))) {
	console.error(`installing ${platform}@${VERSION} into .tools/claude for the end-to-end tests…`);
	installTool("claude", [`${platform}@${VERSION}`], { scripts: false });
}
