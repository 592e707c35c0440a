// A Pi extension that measures the Pi process it is loaded into (bench/pi-host.mjs loads it beside lookback's):
// how late a 10 ms timer fires — the event loop's delay, what Pi's TUI and keystrokes feel — and the process's own
// peak RSS (not its children's). Each sample says whether lookback's indexer slot was held then, so the bench
// can take the delay while a sync ran; times are epoch milliseconds, as the bench's own. Written as one JSON line to LOOKBACK_PROBE_OUT when Pi exits.
import { existsSync, writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

export default function probe() {
	const out = process.env.LOOKBACK_PROBE_OUT;
	const slot = process.env.LOOKBACK_PROBE_SLOT;
	if (!out) return;
	const samples = [];
	let last = performance.now();
	let indexing = false;
	let polled = 0;
	const timer = setInterval(() => {
		const now = performance.now();
		if (slot && now - polled > 100) {
			polled = now;
			indexing = existsSync(slot);
		}
		samples.push([Math.round(performance.timeOrigin + now), Math.max(0, now - last - 10), indexing ? 1 : 0]);
		last = now;
	}, 10);
	timer.unref();
	process.on("exit", () => {
		writeFileSync(out, `${JSON.stringify({ samples, maxRssMB: process.resourceUsage().maxRSS / 1024, pid: process.pid })}\n`);
	});
}
