/**
 * The sessions a person told lookback to forget (`lookback forget`), kept in the archive's folder so that they
 * outlive the index: one JSON line each, by path and session id, appended and synced before anything is
 * removed. A sync never indexes them again, even while their agent keeps the file.
 */

import { closeSync, fsyncSync, openSync, readFileSync, statSync, writeSync } from "node:fs";
import type { Forgotten } from "../core/index.js";
import { PRIVATE_FILE } from "./private-files.js";

interface Tombstone {
	path: string;
	sessionId?: string;
	at: number;
}

export class ForgottenList {
	private cached: { size: number; mtimeMs: number; value: Forgotten } | undefined;

	constructor(readonly path: string) {}

	/** The tombstones as they stand (read again only when the file changed). */
	read(): Forgotten {
		const st = statSync(this.path, { throwIfNoEntry: false });
		if (!st) return { paths: new Set(), sessionIds: new Set() };
		if (this.cached?.size === st.size && this.cached.mtimeMs === st.mtimeMs) return this.cached.value;
		const paths = new Set<string>();
		const sessionIds = new Set<string>();
		for (const line of readFileSync(this.path, "utf8").split("\n")) {
			let t: Partial<Tombstone>;
			try {
				t = JSON.parse(line) as Partial<Tombstone>;
			} catch {
				continue; // a line cut short by a killed process, or an empty one
			}
			if (typeof t.path === "string") paths.add(t.path);
			if (typeof t.sessionId === "string" && t.sessionId.length > 0) sessionIds.add(t.sessionId);
		}
		const value = { paths, sessionIds };
		this.cached = { size: st.size, mtimeMs: st.mtimeMs, value };
		return value;
	}

	/** Add tombstones and make them durable (under the archive's lock). */
	add(sessions: { path: string; sessionId?: string }[]): void {
		if (sessions.length === 0) return;
		const at = Date.now();
		const text = sessions.map((s) => JSON.stringify({ path: s.path, ...(s.sessionId ? { sessionId: s.sessionId } : {}), at })).join("\n");
		const fd = openSync(this.path, "a", PRIVATE_FILE);
		try {
			// A line a killed writer left unfinished ends here, so ours starts on a line of its own.
			writeSync(fd, `\n${text}\n`);
			fsyncSync(fd);
		} finally {
			closeSync(fd);
		}
		this.cached = undefined;
	}
}
