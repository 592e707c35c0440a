/** omp's archive on disk: `archive/sessions/**` of gzipped sessions (omp's gc moves idle ones there). */

import { join } from "node:path";
import type { Found, WalkSink } from "../../../node/walk-dirs.js";

/** How deep archive buckets are followed. */
const MAX_DEPTH = 4;

export async function walkArchive(dir: string, base: Omit<Found, "path">, sink: WalkSink, depth = 0): Promise<void> {
	const { files, dirs } = await sink.list(dir);
	for (const name of files) if (name.endsWith(".jsonl.gz")) sink.found.push({ ...base, path: join(dir, name), kind: "archived" });
	if (depth < MAX_DEPTH) for (const sub of dirs) await walkArchive(join(dir, sub), base, sink, depth + 1);
}
