/** Claude Code lines of older releases written by hand (1.0's shape), and a projects folder holding them, for the format's tests. */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LookbackIndex, memoryStorage } from "../../src/core/index.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileSource } from "../../src/node/file-source.js";
import { tempDir } from "../helpers.js";

export const S1 = "5d9c1c1e-0000-4000-8000-000000000001";
export const S2 = "5d9c1c1e-0000-4000-8000-000000000002";
export const base = { sessionId: S1, cwd: "/home/user/app", version: "1.0.44", isSidechain: false, timestamp: "2025-07-01T10:00:00.000Z" };

export const user = (uuid: string, parentUuid: string | null, content: unknown, extra: object = {}) => ({
	...base,
	type: "user",
	uuid,
	parentUuid,
	message: { role: "user", content },
	...extra,
});

export const assistant = (uuid: string, parentUuid: string | null, id: string, content: unknown[], extra: object = {}) => ({
	...base,
	type: "assistant",
	uuid,
	parentUuid,
	message: { id, role: "assistant", model: "claude-sonnet-4", content },
	...extra,
});

/** The text of a file of these lines. */
export function jsonl(lines: unknown[]): string {
	return `${lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n")}\n`;
}

/** The folder of the one project `projects` writes. */
export const PROJECT = "-home-user-app";

/** A projects folder with one project holding the given files (name → lines). */
export function projects(files: Record<string, unknown[]>): string {
	const root = join(tempDir("claude"), "projects");
	for (const [name, lines] of Object.entries(files)) {
		const path = join(root, PROJECT, name);
		mkdirSync(join(path, ".."), { recursive: true });
		writeFileSync(path, jsonl(lines));
	}
	return root;
}

/** A new in-memory index synced once over a Claude Code projects folder. */
export async function indexed(projects: string) {
	const index = await LookbackIndex.open({ sql: await loadEngine(), storage: memoryStorage() });
	const source = fileSource([{ path: projects, layout: "claude", agent: "claude" }]);
	const report = await index.sync(source);
	return { index, source, report };
}

/**
 * A projects folder whose one session ran a tool with output too long to inline: Claude Code kept it whole in
 * `<session>/tool-results/`, a preview in the transcript (by a path that names another machine's config folder).
 * The output ends with `last`; its result is entry u2.
 */
export function spilledProject(last: string): string {
	const spilled = `${Array.from({ length: 20_000 }, (_, i) => i).join("\n")}\n${last}\n`;
	const preview = [
		{ type: "tool_result", tool_use_id: "toolu_1", content: "<persisted-output>\nOutput too large (110KB). Preview:\n0\n1\n2" },
	];
	const root = projects({
		[`${S1}.jsonl`]: [
			user("u1", null, "count to twenty thousand"),
			assistant("a1", "u1", "msg_1", [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "seq 0 19999" } }]),
			user("u2", "a1", preview, {
				toolUseResult: { persistedOutputPath: `/old/home/.claude/projects/${PROJECT}/${S1}/tool-results/b1.txt` },
			}),
		],
	});
	mkdirSync(join(root, PROJECT, S1, "tool-results"), { recursive: true });
	writeFileSync(join(root, PROJECT, S1, "tool-results", "b1.txt"), spilled);
	return root;
}
