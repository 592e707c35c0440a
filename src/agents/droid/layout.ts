/** Factory Droid's folders: `<factory>/sessions/<cwd with '/' as '-'>/<uuid>.jsonl` (beside each, its `<uuid>.settings.json`). */

import { type Found, ifThere, inFolder, type LayoutWalk } from "../../core/parse/layout.js";
import { droid } from "./agent.js";

/** Whether a file is one of Droid's sessions. */
export function isDroidSessionName(name: string): boolean {
	return droid.idFromFileName?.(name) !== undefined;
}

/** Its sessions folder: a folder per project, each holding its sessions. */
export async function walkDroid(root: string, base: Omit<Found, "path">, walk: LayoutWalk): Promise<void> {
	await ifThere(async () => {
		const top = await walk.list(root);
		for (const dir of top.dirs.sort()) {
			const at = inFolder(walk, root, dir);
			await walk.attempt(at, async () => {
				for (const name of (await walk.list(at)).files)
					if (isDroidSessionName(name)) walk.found.push({ ...base, path: inFolder(walk, at, name) });
			});
		}
	});
}
