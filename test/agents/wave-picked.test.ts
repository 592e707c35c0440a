/**
 * The files a person picks in the viewer with no server, read with each agent's layout as the command line walks
 * them: Qwen Code's, Copilot CLI's, Continue's and Cline's folders as their real CLIs wrote them (test/fixtures).
 */

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { pickedLayout } from "../../web/src/picked-layout.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures");

/** Every file under `dir`, as a page gets them: path (from the picked folder's name) → File. */
function picked(dir: string, as: string): Map<string, File> {
	const files = new Map<string, File>();
	const walk = (at: string) => {
		for (const name of readdirSync(at)) {
			const path = join(at, name);
			if (statSync(path).isDirectory()) walk(path);
			else files.set(`${as}/${relative(dir, path)}`, new File([readFileSync(path)], name));
		}
	};
	walk(dir);
	return files;
}

const found = async (files: Map<string, File>) =>
	(await pickedLayout(files)).found.map((f) => [f.path, f.agent, f.kind ?? "session", f.spawnedBy ?? null]).sort();

describe("the second wave's folders among picked files", () => {
	it("reads Qwen Code's projects folder: its chats and the sub-agents beside them", async () => {
		const chat = "projects/-home-user-zebra-app/chats/df9630d5-ad91-4ee3-9588-5a983d001c52.jsonl";
		expect(await found(picked(join(FIXTURES, "qwen", "projects"), "projects"))).toEqual([
			[chat, "qwen", "session", null],
			[
				"projects/-home-user-zebra-app/subagents/df9630d5-ad91-4ee3-9588-5a983d001c52/agent-general-purpose-call_5.jsonl",
				"qwen",
				"subagent",
				chat,
			],
		]);
	});

	it("reads Copilot CLI's session-state folder", async () => {
		expect(await found(picked(join(FIXTURES, "copilot", "session-state"), "session-state"))).toEqual([
			["session-state/0b92ea4c-4bbb-44f3-968a-762c1eb45d99/events.jsonl", "copilot", "session", null],
		]);
	});

	it("reads Continue's sessions folder, and not its list of sessions", async () => {
		expect(await found(picked(join(FIXTURES, "continue", "sessions"), "sessions"))).toEqual([
			["sessions/f498a1f5-8872-4e16-9ec9-44041f4f5a9a.json", "continue", "session", null],
		]);
	});

	it("reads Cline's sessions folder: each session and its sub-agents", async () => {
		const session = "sessions/1796643593107_m6t2y/1796643593107_m6t2y.messages.json";
		expect(await found(picked(join(FIXTURES, "cline", "data", "sessions"), "sessions"))).toEqual([
			[session, "cline", "session", null],
			["sessions/1796643593107_m6t2y/agent_1796643595124_vxsojr.messages.json", "cline", "subagent", session],
		]);
	});
});
