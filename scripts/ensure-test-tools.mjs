// The browser tests drive a real Chromium and the TUI test drives pi inside tmux, both Debian packages (no test
// tool may download a browser here). On a machine without them, install them when we can (root with apt-get),
// else say what to do. With --cjk-font (npm run screenshots) also a font for Chinese and Japanese, so the README's
// screenshots show the sample sessions' CJK text rather than boxes; the tests themselves do not need it.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";

const chromium = process.env.LOOKBACK_CHROMIUM ?? "/usr/bin/chromium";
const has = (cmd) => {
	try {
		execSync(`command -v ${cmd}`, { stdio: "ignore", shell: "/bin/bash" });
		return true;
	} catch {
		return false;
	}
};
const cjkFont = process.argv.includes("--cjk-font") && !existsSync("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc");
const missing = [...(existsSync(chromium) ? [] : ["chromium"]), ...(has("tmux") ? [] : ["tmux"]), ...(cjkFont ? ["fonts-wqy-zenhei"] : [])];
if (missing.length === 0) process.exit(0);
const root = typeof process.getuid === "function" && process.getuid() === 0;
if (!root || !has("apt-get")) {
	console.error(`lookback tests need ${missing.join(" and ")}: install Debian's packages (or set LOOKBACK_CHROMIUM to a Chromium binary)`);
	process.exit(1);
}
console.error(`installing ${missing.join(" ")} (apt-get) for the browser and TUI tests…`);
execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.join(" ")} >/dev/null`, {
	stdio: "inherit",
	shell: "/bin/bash",
});
