/**
 * OpenClaw's state folder: each agent's database (`agents/<agent>/agent/openclaw-agent.sqlite`), each session of it
 * one file to the rest of lookback at the virtual path `<database>/<session id>` (a sub-agent's under the session
 * that spawned it, `<database>/<parent>/<child>`), stamped with its number of events and its last update; then the
 * JSONL transcripts of releases before the database (`agents/<agent>/sessions/<id>.jsonl`), less those it holds.
 */

import { statSync } from "node:fs";
import { basename, join, sep } from "node:path";
import { LookbackError } from "../../../core/index.js";
import { type Found, listDir, type WalkSink } from "../../../node/walk-dirs.js";
import { databaseOf, OPENCODE_MAX_NESTING, sessionInDatabase } from "../../opencode/node/paths.js";
import { openclaw } from "../agent.js";
import { OPENCLAW_AGENT_DB } from "../layout.js";
import { OpenclawDb } from "./db.js";

async function walkDb(db: string, base: Omit<Found, "path">, seen: Set<string>, sink: WalkSink): Promise<void> {
	await sink.attempt(db, async () => {
		if (statSync(db).size === 0) return;
		const sessions = (await OpenclawDb.open(db)).sessions();
		const parents = new Map(sessions.map((s) => [s.id, s.parentId]));
		const chainOf = (id: string): string[] => {
			const chain = [id];
			for (let p = parents.get(id); p && chain.length < OPENCODE_MAX_NESTING && !chain.includes(p); p = parents.get(p)) chain.unshift(p);
			return chain;
		};
		for (const s of sessions) {
			seen.add(s.id);
			const chain = chainOf(s.id);
			const path = [db, ...chain].join(sep);
			sink.found.push({
				...base,
				path,
				rendered: true,
				size: s.events,
				mtimeMs: s.updated,
				...(chain.length > 1 ? { kind: "subagent" as const, spawnedBy: [db, ...chain.slice(0, -1)].join(sep) } : {}),
			});
		}
	});
}

/** Walk OpenClaw's state folder: every agent's database, then its JSONL transcripts from before. */
export async function walkOpenclaw(root: string, base: Omit<Found, "path">, sink: WalkSink): Promise<void> {
	const agents = join(root, "agents");
	const top = await listDir(root, sink.folders);
	if (!top.dirs.includes("agents")) return;
	for (const agent of (await listDir(agents, sink.folders)).dirs.sort()) {
		const seen = new Set<string>();
		const own = (await listDir(join(agents, agent), sink.folders)).dirs;
		if (own.includes("agent")) {
			const files = (await listDir(join(agents, agent, "agent"), sink.folders)).files;
			if (files.includes(OPENCLAW_AGENT_DB)) await walkDb(join(agents, agent, "agent", OPENCLAW_AGENT_DB), base, seen, sink);
		}
		if (!own.includes("sessions")) continue;
		const dir = join(agents, agent, "sessions");
		for (const name of (await listDir(dir, sink.folders)).files)
			if (name.endsWith(".jsonl") && !seen.has(basename(name, ".jsonl"))) sink.found.push({ ...base, path: join(dir, name) });
	}
}

const isOpenclawId = (name: string): boolean => openclaw.idFromFileName?.(name) === name;

/** A session inside an OpenClaw database: its real path, the database's resolved. */
export function sessionInOpenclawDb(path: string): string | undefined {
	return sessionInDatabase(path, isOpenclawId);
}

/** The transcript of a session the walk found in a database (`path` already checked to lie inside a walked root). */
export async function readOpenclawDocument(path: string): Promise<Uint8Array> {
	const db = databaseOf(path, isOpenclawId);
	const text = db ? (await OpenclawDb.open(db)).transcript(basename(path)) : undefined;
	if (text === undefined) throw new LookbackError("session-not-found", `no OpenClaw session at ${path}`);
	return new TextEncoder().encode(text);
}
