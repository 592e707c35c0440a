// The browser tests drive a real Chromium. Debian's package is used (no test tool may download a browser
// here); on a machine without it, install it when we can (root with apt-get), else say what to do.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";

const path = process.env.LOOKBACK_CHROMIUM ?? "/usr/bin/chromium";
if (existsSync(path)) process.exit(0);
const root = typeof process.getuid === "function" && process.getuid() === 0;
let hasApt = false;
try {
	execSync("command -v apt-get", { stdio: "ignore" });
	hasApt = true;
} catch {}
if (!root || !hasApt) {
	console.error(`lookback tests need Chromium at ${path}: install Debian's "chromium" package or set LOOKBACK_CHROMIUM`);
	process.exit(1);
}
console.error("installing Chromium (apt-get install chromium) for the browser tests…");
execSync("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null", { stdio: "inherit", shell: "/bin/bash" });
