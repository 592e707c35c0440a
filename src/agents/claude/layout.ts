/**
 * Claude Code's folders: `<config>/projects/<cwd with non-alphanumerics as ->/<uuid>.jsonl`, sub-agents in
 * `<uuid>/subagents/agent-<id>.jsonl` (2.1.2+, nested deeper since 2.1.172) or as `agent-<id>.jsonl` beside the
 * sessions (2.0.x). Spilled tool output (`<uuid>/tool-results/`) and workflow journals are not transcripts.
 */

import { type Found, ifThere, inFolder, type LayoutWalk, type Listing } from "../../core/parse/layout.js";

/** How deep sub-agents of sub-agents are followed (Claude Code nests them up to 5 levels). */
const MAX_SUBAGENT_DEPTH = 6;

const SESSION_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/i;

/** The compaction summariser's own transcript: a copy of the session it summarises, not work of its own. */
function isCompactorTranscript(name: string): boolean {
	return name.startsWith("agent-acompact-");
}

/** Whether a folder is one of Claude Code's project folders: it holds a session named by its uuid. */
export function isClaudeProject(listing: Listing): boolean {
	return listing.files.some((n) => SESSION_NAME.test(n));
}

async function subagents(dir: string, base: Omit<Found, "path">, spawnedBy: string, walk: LayoutWalk, depth: number): Promise<void> {
	const { files, dirs } = await walk.list(dir);
	for (const name of files) {
		if (name.endsWith(".jsonl") && name.startsWith("agent-") && !isCompactorTranscript(name))
			walk.found.push({ ...base, path: inFolder(walk, dir, name), kind: "subagent", spawnedBy });
	}
	if (depth >= MAX_SUBAGENT_DEPTH) return;
	for (const sub of dirs) {
		const nested = inFolder(walk, dir, sub);
		if (sub !== "workflows") await walk.attempt(nested, () => subagents(nested, base, spawnedBy, walk, depth + 1));
	}
}

/** The sessions of one project folder and the sub-agents they spawned. */
export async function claudeProject(dir: string, base: Omit<Found, "path">, walk: LayoutWalk): Promise<void> {
	const { files, dirs } = await walk.list(dir);
	const sessions = new Set(files.filter((n) => n.endsWith(".jsonl")));
	for (const name of sessions) {
		if (isCompactorTranscript(name)) continue;
		const path = inFolder(walk, dir, name);
		// 2.0.x kept sub-agents beside the sessions; the file names its session only inside (see spawnerOf in the sync).
		walk.found.push(name.startsWith("agent-") ? { ...base, path, kind: "subagent" } : { ...base, path });
	}
	for (const sub of dirs) {
		if (!sessions.has(`${sub}.jsonl`) && !/^[0-9a-f-]{36}$/i.test(sub)) continue;
		const nested = inFolder(walk, inFolder(walk, dir, sub), "subagents");
		const session = inFolder(walk, dir, `${sub}.jsonl`);
		await walk.attempt(nested, () => ifThere(() => subagents(nested, base, session, walk, 1)));
	}
}

/** Walk `<config>/projects`: one folder per project. */
export async function walkClaude(projects: string, base: Omit<Found, "path">, walk: LayoutWalk): Promise<void> {
	const top = await walk.list(projects);
	for (const folder of top.dirs) {
		const dir = inFolder(walk, projects, folder);
		await walk.attempt(dir, () => claudeProject(dir, base, walk));
	}
}
