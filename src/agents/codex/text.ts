/** The text of Codex's records: messages' content blocks, tools' outputs and whether they failed, and what the harness injects. */

import { parseJsonObject } from "../../core/parse/jsonl.js";
import { asRecord } from "../../core/parse/pi-shape.js";

/** Text the harness puts in the model's context as a user or developer message: meta, not the person's words. */
const INJECTED = [
	/^\s*<environment_context>/,
	/^\s*<user_instructions>/,
	/^\s*<permissions instructions>/,
	/^\s*<skills_instructions>/,
	/^\s*<subagent_notification>/,
	/^\s*<turn_aborted>/,
	/^\s*<user_shell_command>/,
	/^\s*<collaboration_mode>/,
	/^\s*<apps_instructions>/,
	/^\s*<personality/,
	/^\s*# AGENTS\.md instructions/,
	/^\s*<INSTRUCTIONS>/,
];

export function isInjected(text: string): boolean {
	return INJECTED.some((re) => re.test(text));
}

/** Text of a message's content blocks (`input_text`, `output_text`, `text`); images are counted, never indexed. */
export function contentText(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	const parts: string[] = [];
	let images = 0;
	for (const raw of content) {
		const block = asRecord(raw);
		if (!block) continue;
		if (typeof block.text === "string") parts.push(block.text);
		else if (block.type === "input_image" || block.type === "image") images++;
	}
	return `${parts.join("\n")}${images > 0 ? "\n[image]" : ""}`.trim();
}

/** A tool's output: a string, `{content, success}`, or content blocks. */
export function outputText(output: unknown): string {
	if (typeof output === "string") return output;
	const record = asRecord(output);
	if (record) {
		if (typeof record.content === "string") return record.content;
		if (Array.isArray(record.content)) return contentText(record.content);
		if (typeof record.output === "string") return record.output;
	}
	if (Array.isArray(output)) return contentText(output);
	return output === undefined ? "" : JSON.stringify(output);
}

/**
 * Whether a tool's output says it failed: `success: false` (releases before 0.17x), or a shell command's non-zero
 * exit, which 0.17x writes in the output's header (`Process exited with code N`) and older releases in a JSON
 * text's `metadata.exit_code` — as Pi marks a bash call that exits non-zero as an error.
 */
export function outputFailed(output: unknown): boolean {
	if (asRecord(output)?.success === false) return true;
	const text = outputText(output);
	const header = /^Process exited with code (-?\d+)$/m.exec(text.slice(0, 300));
	if (header) return header[1] !== "0";
	if (!text.startsWith("{")) return false;
	const code = asRecord(asRecord(parseJsonObject(text))?.metadata)?.exit_code;
	return typeof code === "number" && code !== 0;
}

export function parsedArguments(args: unknown): unknown {
	if (typeof args !== "string") return args;
	const obj = parseJsonObject(args);
	return obj ?? args;
}
