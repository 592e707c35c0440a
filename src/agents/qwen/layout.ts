/**
 * Qwen Code's folders under `<runtime dir>/projects`: one folder per project, named by its path with every character
 * but letters and digits as `-`; its chats in `chats/<session id>.jsonl`, the sub-agents a session spawned in
 * `subagents/<session id>/agent-<agent id>.jsonl` (beside each, a `.meta.json` the walk does not read).
 */

import { type Found, ifThere, inFolder, type LayoutWalk } from "../../core/parse/layout.js";

/** The chats of one project folder and the sub-agents they spawned. */
export async function qwenProject(dir: string, base: Omit<Found, "path">, walk: LayoutWalk): Promise<void> {
	const chats = inFolder(walk, dir, "chats");
	const sessions = new Set<string>();
	await walk.attempt(chats, () =>
		ifThere(async () => {
			for (const name of (await walk.list(chats)).files.filter((n) => n.endsWith(".jsonl")).sort()) {
				sessions.add(name.slice(0, -".jsonl".length));
				walk.found.push({ ...base, path: inFolder(walk, chats, name) });
			}
		}),
	);
	const subagents = inFolder(walk, dir, "subagents");
	await walk.attempt(subagents, () =>
		ifThere(async () => {
			for (const id of (await walk.list(subagents)).dirs.sort()) {
				const folder = inFolder(walk, subagents, id);
				const spawnedBy = sessions.has(id) ? { spawnedBy: inFolder(walk, chats, `${id}.jsonl`) } : {};
				await walk.attempt(folder, async () => {
					for (const name of (await walk.list(folder)).files.filter((n) => n.endsWith(".jsonl")).sort())
						walk.found.push({ ...base, path: inFolder(walk, folder, name), kind: "subagent", ...spawnedBy });
				});
			}
		}),
	);
}

/** Walk `<runtime dir>/projects`: one folder per project. */
export async function walkQwen(projects: string, base: Omit<Found, "path">, walk: LayoutWalk): Promise<void> {
	for (const folder of (await walk.list(projects)).dirs) {
		const dir = inFolder(walk, projects, folder);
		await walk.attempt(dir, () => qwenProject(dir, base, walk));
	}
}
