/**
 * The status line's quick path, run by the bin before the command line loads: `lookback statusline` (with at most
 * `--timezone ZONE`) answered from the cache when it is valid for the index as it is now; false when the command line
 * has to make it (a miss, other options).
 */

import { readConfig } from "./config.js";
import { indexPathOf } from "./index-path.js";
import { cachedLine, dayIn, hookInput, stdinText } from "./statusline.js";

export function quickStatusline(argv: readonly string[], env: Record<string, string | undefined>): boolean {
	let zone: string | undefined;
	if (argv[0] !== "statusline") return false;
	const rest = argv.slice(1);
	if (rest.length === 2 && rest[0] === "--timezone") zone = rest[1];
	else if (rest.length === 1 && rest[0].startsWith("--timezone=")) zone = rest[0].slice("--timezone=".length);
	else if (rest.length > 0) return false;
	try {
		zone ??= readConfig({ env }).usage?.timezone;
		const now = Date.now();
		const line = cachedLine(indexPathOf({ env }), hookInput(stdinText()), zone ?? "", dayIn(now, zone), now);
		if (line === undefined) return false;
		process.stdout.write(line);
		return true;
	} catch {
		return false;
	}
}
