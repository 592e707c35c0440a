/** A Pi session file written for a test: one chain of user and assistant messages in a given working directory. */

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export function writeSession(sessionsDir: string, id: string, cwd: string, texts: string[], started = "2026-11-28T10:00:00.000Z"): string {
	// Not named after the cwd as Pi names it: a cwd under /tmp would make a `--tmp-…` folder, which lookback skips.
	const folder = join(sessionsDir, `--home-dev-${id}--`);
	mkdirSync(folder, { recursive: true });
	const start = Date.parse(started);
	const lines: object[] = [{ type: "session", version: 3, id, timestamp: new Date(start).toISOString(), cwd }];
	texts.forEach((text, i) => {
		const role = i % 2 === 0 ? "user" : "assistant";
		lines.push({
			type: "message",
			id: `m${i}`,
			parentId: i === 0 ? null : `m${i - 1}`,
			timestamp: new Date(start + i * 1000).toISOString(),
			message: { role, content: [{ type: "text", text }], timestamp: start + i * 1000 },
		});
	});
	const path = join(folder, `2026-11-28T10-00-00-000Z_${id}.jsonl`);
	writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
	return path;
}
