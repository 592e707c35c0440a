/**
 * Pi's folders on disk: `sessions/<encoded cwd>/*.jsonl` (`nested`, omp's layout too, loose files included; a folder
 * given by hand is walked so as well), or a custom session dir of files directly inside (`flat`).
 */

import { join, sep } from "node:path";
import type { Found, WalkSink } from "../../../node/walk-dirs.js";
import { isTmpSessionFolder } from "../layout.js";

/** How deep sub-agent folders (omp: `<session>/<agent>.jsonl`, and theirs) are followed. */
const MAX_DEPTH = 4;

async function jsonlIn(dir: string, sink: WalkSink): Promise<string[]> {
	return (await sink.list(dir)).files.filter((n) => n.endsWith(".jsonl")).map((n) => join(dir, n));
}

/**
 * Sessions of one project folder, and omp's sub-agent transcripts: a folder named like a session file
 * (`<stem>/` beside `<stem>.jsonl`) holds the transcripts of the agents that session spawned.
 */
async function projectFolder(dir: string, base: Omit<Found, "path">, sink: WalkSink, depth = 0, spawnedBy?: string): Promise<void> {
	const { files, dirs } = await sink.list(dir);
	const sessions = new Set(files.filter((n) => n.endsWith(".jsonl")));
	for (const name of sessions) {
		// dir is already normalised: a plain concatenation is far cheaper than join() over thousands of files
		const path = `${dir}${sep}${name}`;
		sink.found.push(spawnedBy ? { ...base, path, kind: "subagent", spawnedBy } : { ...base, path });
	}
	if (depth >= MAX_DEPTH) return;
	for (const sub of dirs) {
		if (sessions.has(`${sub}.jsonl`)) await projectFolder(join(dir, sub), base, sink, depth + 1, join(dir, `${sub}.jsonl`));
	}
}

/** The session files directly inside a folder. */
async function looseFiles(root: string, base: Omit<Found, "path">, sink: WalkSink): Promise<string[]> {
	const top = await sink.list(root);
	for (const name of top.files) if (name.endsWith(".jsonl")) sink.found.push({ ...base, path: join(root, name) });
	return top.dirs;
}

/** A flat session dir: the files directly inside. */
export async function walkFlat(root: string, base: Omit<Found, "path">, sink: WalkSink): Promise<void> {
	await looseFiles(root, base, sink);
}

/** One folder per project, loose files too; the folders of temporary working directories are skipped and named. */
export async function walkNested(root: string, base: Omit<Found, "path">, sink: WalkSink): Promise<void> {
	for (const folder of await looseFiles(root, base, sink)) {
		const dir = join(root, folder);
		if (isTmpSessionFolder(folder)) {
			await sink.attempt(dir, async () => {
				for (const p of await jsonlIn(dir, sink)) sink.skip({ path: p, reason: "tmp-folder" });
			});
		} else await sink.attempt(dir, () => projectFolder(dir, base, sink));
	}
}
