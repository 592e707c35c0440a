// The Chromium the tests and the browser benchmark drive: Debian's (installed by scripts/ensure-test-tools.mjs), headless.
import { chromium } from "playwright-core";

export const CHROMIUM = process.env.LOOKBACK_CHROMIUM ?? "/usr/bin/chromium";

export function launchChromium() {
	return chromium.launch({
		executablePath: CHROMIUM,
		args: [
			"--headless",
			"--no-sandbox",
			"--disable-gpu",
			"--disable-quic",
			"--no-first-run",
			"--disable-background-networking",
			"--disable-component-update",
			"--disable-sync",
		],
	});
}
