// OpenCode for the end-to-end tests: installed from the registry into .tools/opencode, pinned. Its package
// `opencode-ai` is a placeholder whose install script copies the native binary out of a platform package (and
// installs that package with npm if it is missing); the platform package is installed by name instead and its binary
// run directly, with no script. Even `opencode --version` creates folders under its XDG dirs: run it with temp ones.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { installTool, nativeBuild, versionInTempHome } from "../tools-install.mjs";

const VERSION = "1.18.33";

const name = `opencode-${nativeBuild()}`;
const dir = join(".tools", "opencode");
const bin = join(dir, "node_modules", name, "bin", process.platform === "win32" ? "opencode.exe" : "opencode");
const version = () => versionInTempHome(bin);
const installed = () => {
	try {
		return version() === VERSION;
	} catch {
		return false;
	}
};
if (!existsSync(bin) || !installed()) {
	console.error(`installing ${name}@${VERSION} into .tools/opencode for the OpenCode tests…`);
	installTool("opencode", [`${name}@${VERSION}`], { scripts: false });
}
const got = version();
if (got !== VERSION) throw new Error(`.tools/opencode has OpenCode ${got}, expected ${VERSION}`);
