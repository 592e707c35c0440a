/** omp's history.db and agent.db, read as bytes (never opened for writing), cached until they change. */

import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { SqlJsStatic } from "../../../core/index.js";
import { type OmpMetadata, readOmpMetadata } from "../metadata.js";

/** Larger database files are not read for titles (they would only cost memory). */
const MAX_DB_BYTES = 256 * 1024 * 1024;

let cache: { key: string; meta: OmpMetadata } | undefined;

function stamp(path: string): string {
	try {
		const s = statSync(path);
		return `${s.size}:${s.mtimeMs}`;
	} catch {
		return "-";
	}
}

function bytes(path: string): Uint8Array | undefined {
	try {
		if (statSync(path).size > MAX_DB_BYTES) return undefined;
		return new Uint8Array(readFileSync(path));
	} catch {
		return undefined;
	}
}

function walPending(path: string): boolean {
	try {
		return statSync(`${path}-wal`).size > 0;
	} catch {
		return false;
	}
}

/** Titles and summaries from omp's databases in `ompAgentDir`. */
export function ompMetadata(SQL: SqlJsStatic, ompAgentDir: string): OmpMetadata {
	const history = join(ompAgentDir, "history.db");
	const agent = join(ompAgentDir, "agent.db");
	const key = [history, agent, `${history}-wal`, `${agent}-wal`].map(stamp).join("|") + ompAgentDir;
	if (cache?.key === key) return cache.meta;
	const meta = readOmpMetadata(SQL, { history: bytes(history), agent: bytes(agent), walPending: walPending(history) || walPending(agent) });
	cache = { key, meta };
	return meta;
}
