/**
 * Claude Code's folders: `<config>/projects/<cwd with non-alphanumerics as ->/<uuid>.jsonl`, sub-agents in
 * `<uuid>/subagents/agent-<id>.jsonl` (2.1.2+, nested deeper since 2.1.172) or as `agent-<id>.jsonl` beside the
 * sessions (2.0.x). Spilled tool output (`<uuid>/tool-results/`) and workflow journals are not transcripts.
 */

import { join, sep } from "node:path";
import { type Found, listDir, type WalkSink } from "./walk-dirs.js";

/** How deep sub-agents of sub-agents are followed (Claude Code nests them up to 5 levels). */
const MAX_SUBAGENT_DEPTH = 6;

/** The compaction summariser's own transcript: a copy of the session it summarises, not work of its own. */
function isCompactorTranscript(name: string): boolean {
	return name.startsWith("agent-acompact-");
}

async function subagents(dir: string, base: Omit<Found, "path">, spawnedBy: string, sink: WalkSink, depth: number): Promise<void> {
	const { files, dirs } = await listDir(dir, sink.folders);
	for (const name of files) {
		if (name.endsWith(".jsonl") && name.startsWith("agent-") && !isCompactorTranscript(name))
			sink.found.push({ ...base, path: join(dir, name), kind: "subagent", spawnedBy });
	}
	if (depth >= MAX_SUBAGENT_DEPTH) return;
	for (const sub of dirs)
		if (sub !== "workflows") await sink.attempt(join(dir, sub), () => subagents(join(dir, sub), base, spawnedBy, sink, depth + 1));
}

async function projectFolder(dir: string, base: Omit<Found, "path">, sink: WalkSink): Promise<void> {
	const { files, dirs } = await listDir(dir, sink.folders);
	const sessions = new Set(files.filter((n) => n.endsWith(".jsonl")));
	for (const name of sessions) {
		if (isCompactorTranscript(name)) continue;
		// dir is already normalised: a plain concatenation is far cheaper than join() over thousands of files
		const path = `${dir}${sep}${name}`;
		// 2.0.x kept sub-agents beside the sessions; the file names its session only inside (see spawnerOf in the sync).
		sink.found.push(name.startsWith("agent-") ? { ...base, path, kind: "subagent" } : { ...base, path });
	}
	for (const sub of dirs) {
		const session = join(dir, `${sub}.jsonl`);
		const nested = join(dir, sub, "subagents");
		if (sessions.has(`${sub}.jsonl`) || /^[0-9a-f-]{36}$/i.test(sub))
			await sink.attempt(nested, async () => {
				try {
					await subagents(nested, base, session, sink, 1);
				} catch (error) {
					if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
				}
			});
	}
}

/** Walk `<config>/projects`: one folder per project. */
export async function walkClaude(projects: string, base: Omit<Found, "path">, sink: WalkSink): Promise<void> {
	const top = await listDir(projects, sink.folders);
	for (const folder of top.dirs) await sink.attempt(join(projects, folder), () => projectFolder(join(projects, folder), base, sink));
}
