// Kilo Code CLI for the end-to-end tests: installed from the registry into .tools/kilo, pinned. Like OpenCode's (it is
// a fork), its package `@kilocode/cli` is a launcher whose native binary is in a platform package, installed here by
// name and run directly. 7.8.1's platform packages are missing from the registry; 7.7.7 installs. Even `kilo --version`
// creates folders under its XDG dirs: run it with temp ones.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { installTool, nativeBuild, versionInTempHome } from "../tools-install.mjs";

const VERSION = "7.7.7";

const name = `@kilocode/cli-${nativeBuild()}`;
const dir = join(".tools", "kilo");
const bin = join(dir, "node_modules", ...name.split("/"), "bin", process.platform === "win32" ? "kilo.exe" : "kilo");
const version = () => versionInTempHome(bin, { KILO_DISABLE_AUTOUPDATE: "1" });
const installed = () => {
	try {
		return version() === VERSION;
	} catch {
		return false;
	}
};
if (!existsSync(bin) || !installed()) {
	console.error(`installing ${name}@${VERSION} into .tools/kilo for the Kilo Code tests…`);
	installTool("kilo", [`${name}@${VERSION}`], { scripts: false });
}
const got = version();
if (got !== VERSION) throw new Error(`.tools/kilo has Kilo Code ${got}, expected ${VERSION}`);
