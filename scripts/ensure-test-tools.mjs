// The browser tests drive a real Chromium and the TUI test drives pi inside tmux, both Debian packages (no test
// tool may download a browser here). On a machine without them, install them when we can (root with apt-get),
// else say what to do. nginx (Debian 12's 1.22.1, pinned below) serves a read-only team bucket by ranges in the remote
// tests (test/node/team-http.test.ts); they start it themselves on 127.0.0.1, so its service is never started here.
// With --cjk-font (npm run screenshots) also a font for Chinese and Japanese, so the README's
// screenshots show the sample sessions' CJK text rather than boxes; the tests themselves do not need it.
import { execSync } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";

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
/** The nginx the tests run, pinned to Debian 12's release (its security updates taken). */
const NGINX = "nginx-light=1.22.1-9+deb12u*";
const missing = [
	...(existsSync(chromium) ? [] : ["chromium"]),
	...(has("tmux") ? [] : ["tmux"]),
	...(existsSync("/usr/sbin/nginx") ? [] : [NGINX]),
	...(cjkFont ? ["fonts-wqy-zenhei"] : []),
];
if (missing.length === 0) process.exit(0);
const root = typeof process.getuid === "function" && process.getuid() === 0;
if (!root || !has("apt-get")) {
	console.error(
		`lookback tests need ${missing.map((m) => m.split("=")[0]).join(" and ")}: install Debian's packages (or set LOOKBACK_CHROMIUM to a Chromium binary)`,
	);
	process.exit(1);
}
console.error(`installing ${missing.join(" ")} (apt-get) for the browser and TUI tests…`);
// No service of a package is started by its install (nginx's would listen on port 80 of every address).
const policy = "/usr/sbin/policy-rc.d";
const ownPolicy = !existsSync(policy);
if (ownPolicy) writeFileSync(policy, "#!/bin/sh\nexit 101\n", { mode: 0o755 });
try {
	execSync(
		`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.map((m) => `'${m}'`).join(" ")} >/dev/null`,
		{
			stdio: "inherit",
			shell: "/bin/bash",
		},
	);
} finally {
	if (ownPolicy) rmSync(policy, { force: true });
}
