/**
 * GitHub Copilot CLI's folders under `<copilot home>/session-state`: one folder per session, named by its id, whose
 * `events.jsonl` is the session (beside it `workspace.yaml`, checkpoints and file snapshots, not read). A sub-agent's
 * events are written into its session's own file.
 */

import { type Found, ifThere, inFolder, type LayoutWalk } from "../../core/parse/layout.js";

/** Walk `<copilot home>/session-state`. */
export async function walkCopilot(state: string, base: Omit<Found, "path">, walk: LayoutWalk): Promise<void> {
	const { dirs } = await walk.list(state);
	for (const id of dirs.filter((d) => !d.startsWith(".")).sort()) {
		const dir = inFolder(walk, state, id);
		await walk.attempt(dir, () =>
			ifThere(async () => {
				if ((await walk.list(dir)).files.includes("events.jsonl")) walk.found.push({ ...base, path: inFolder(walk, dir, "events.jsonl") });
			}),
		);
	}
}
