/**
 * The files of dist/ that a host starts or loads at run time (the indexer process, the extension's tool
 * bundle). From a bundle in dist/ they lie beside it, built with it. From the sources (Pi and omp load the
 * extension from src/) they are in ../../dist/, built by `npm run build` or by `prepare` after `npm ci` — and
 * maybe before a `git pull`: a file older than the newest source is not used, the sources are (more slowly).
 */

import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const newest = globalThis as { [key: symbol]: number | undefined };
const NEWEST_SOURCE = Symbol.for("lookback.newestSource");

/** The newest modification time of the files under `dir` (walked once per process). */
function newestUnder(dir: string): number {
	let time = 0;
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const path = join(dir, entry.name);
		time = Math.max(time, entry.isDirectory() ? newestUnder(path) : statSync(path).mtimeMs);
	}
	return time;
}

export function builtFile(name: string): string | undefined {
	const beside = fileURLToPath(new URL(`./${name}`, import.meta.url));
	if (existsSync(beside)) return beside;
	const built = fileURLToPath(new URL(`../../dist/${name}`, import.meta.url));
	if (!existsSync(built)) return undefined;
	newest[NEWEST_SOURCE] ??= newestUnder(fileURLToPath(new URL("../", import.meta.url)));
	return statSync(built).mtimeMs >= newest[NEWEST_SOURCE] ? built : undefined;
}
