/** The names Codex's TUI gives threads, kept beside its sessions. */

import { parseJsonObject } from "../../core/parse/jsonl.js";
import { asString } from "../../core/parse/pi-shape.js";

/** Codex's `session_index.jsonl` (`{id, thread_name, updated_at}` a line, written by the TUI on a rename): thread id → name, the last line winning. */
export function codexThreadNames(bytes: Uint8Array): Map<string, string> {
	const names = new Map<string, string>();
	for (const line of new TextDecoder().decode(bytes).split("\n")) {
		const obj = line.trim() ? parseJsonObject(line) : undefined;
		const id = asString(obj?.id);
		const name = asString(obj?.thread_name);
		if (id && name) names.set(id, name);
	}
	return names;
}
