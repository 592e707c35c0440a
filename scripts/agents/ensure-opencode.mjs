// OpenCode for the end-to-end tests: installed from the registry into .tools/opencode, pinned. Its package
// `opencode-ai` is a placeholder whose install script copies the native binary out of a platform package (and
// installs that package with npm if it is missing); the platform package is installed by name instead and its binary
// run directly, with no script. Even `opencode --version` creates folders under its XDG dirs: run it with temp ones.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { installTool } from "../tools-install.mjs";

const VERSION = "1.18.33";

/** The platform package the placeholder's own script would pick: x64 without AVX2 takes the baseline build, musl its own. */
function platformPackage() {
	const os = { darwin: "darwin", linux: "linux", win32: "windows" }[process.platform] ?? process.platform;
	const arch = process.arch;
	let avx2 = arch !== "x64";
	if (arch === "x64" && os === "linux") {
		try {
			avx2 = /(^|\s)avx2(\s|$)/i.test(readFileSync("/proc/cpuinfo", "utf8"));
		} catch {
			avx2 = false;
		}
	}
	const musl = os === "linux" && existsSync("/etc/alpine-release");
	return `opencode-${os}-${arch}${arch === "x64" && !avx2 ? "-baseline" : ""}${musl ? "-musl" : ""}`;
}

const name = platformPackage();
const dir = join(".tools", "opencode");
const bin = join(dir, "node_modules", name, "bin", process.platform === "win32" ? "opencode.exe" : "opencode");
const version = () => {
	const home = mkdtempSync(join(tmpdir(), "opencode-version-"));
	const xdg = { XDG_DATA_HOME: join(home, "data"), XDG_CONFIG_HOME: join(home, "config"), XDG_CACHE_HOME: join(home, "cache") };
	try {
		return execFileSync(bin, ["--version"], {
			encoding: "utf8",
			stdio: ["ignore", "pipe", "ignore"],
			env: { ...process.env, HOME: home, ...xdg, XDG_STATE_HOME: join(home, "state") },
		}).trim();
	} finally {
		rmSync(home, { recursive: true, force: true });
	}
};
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
