// The test tools that are not devDependencies (omp and Bun, Node 22, the current Pi) are installed from the npm
// registry into a folder of their own under .tools/, each once.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** `npm install` of `packages` into `.tools/<name>` (its own package.json, no lock file); `scripts: false` skips install scripts. */
export function installTool(name, packages, { scripts = true } = {}) {
	const dir = join(".tools", name);
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, "package.json"), '{ "private": true }\n');
	const flags = ["--no-package-lock", ...(scripts ? [] : ["--ignore-scripts"]), "--no-audit", "--no-fund", "--loglevel=error"];
	execFileSync("npm", ["install", ...flags, ...packages], { cwd: dir, stdio: "inherit" });
}

/**
 * The build of a native CLI that its launcher would pick on this machine, as `<os>-<arch>[-baseline][-musl]` (OpenCode's
 * and Kilo Code's platform packages): x64 without AVX2 takes the baseline build, musl its own.
 */
export function nativeBuild() {
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
	return `${os}-${arch}${arch === "x64" && !avx2 ? "-baseline" : ""}${musl ? "-musl" : ""}`;
}

/** `<bin> --version`, run with a temp home and XDG dirs (OpenCode and its forks create folders there even for that). */
export function versionInTempHome(bin, env = {}) {
	const home = mkdtempSync(join(tmpdir(), "tool-version-"));
	const xdg = { XDG_DATA_HOME: join(home, "data"), XDG_CONFIG_HOME: join(home, "config"), XDG_CACHE_HOME: join(home, "cache") };
	try {
		return execFileSync(bin, ["--version"], {
			encoding: "utf8",
			stdio: ["ignore", "pipe", "ignore"],
			env: { ...process.env, HOME: home, ...xdg, XDG_STATE_HOME: join(home, "state"), ...env },
		}).trim();
	} finally {
		rmSync(home, { recursive: true, force: true });
	}
}
