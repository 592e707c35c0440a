/** Amp's folder: `<data>/amp/threads/T-<uuid>.json`, one thread a file, nothing nested. */

import { type Found, inFolder, type LayoutWalk } from "../../core/parse/layout.js";
import { amp } from "./agent.js";

/** Walk Amp's `threads/` folder. */
export async function walkAmp(threads: string, base: Omit<Found, "path">, walk: LayoutWalk): Promise<void> {
	const { files } = await walk.list(threads);
	for (const name of files) if (amp.idFromFileName?.(name)) walk.found.push({ ...base, path: inFolder(walk, threads, name) });
}
