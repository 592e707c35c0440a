// Factory Droid for the end-to-end tests: installed from the registry into .tools/droid, pinned. Its packages
// (`droid`, `@factory/cli`) are launchers whose install script copies the native binary out of a platform package;
// the platform package is installed by name instead and its binary run directly. `@factory/cli` 0.225.1's platform
// packages are not on the registry (0.225.2 is, without its launcher); 0.215.0's are.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { installTool } from "../tools-install.mjs";

const VERSION = "0.215.0";
const os = { darwin: "darwin", linux: "linux", win32: "win32" }[process.platform] ?? process.platform;
const name = `@factory/cli-${os}-${process.arch}`;
const bin = join(
	".tools",
	"droid",
	"node_modules",
	"@factory",
	`cli-${os}-${process.arch}`,
	"bin",
	process.platform === "win32" ? "droid.exe" : "droid",
);
const version = () => {
	try {
		return execFileSync(bin, ["--version"], {
			encoding: "utf8",
			stdio: ["ignore", "pipe", "ignore"],
			env: { ...process.env, HOME: join(".tools", "droid") },
		}).trim();
	} catch {
		return undefined;
	}
};
if (!existsSync(bin) || version() !== VERSION) {
	console.error(`installing ${name}@${VERSION} into .tools/droid for the Factory Droid tests…`);
	installTool("droid", [`${name}@${VERSION}`], { scripts: false });
}
if (version() !== VERSION) throw new Error(`.tools/droid has Factory Droid ${version()}, expected ${VERSION}`);
