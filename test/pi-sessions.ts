/** Session files written by the real Pi SessionManager, for tests. */

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "@mariozechner/pi-coding-agent";

export { SessionManager };

/** Pi's folder name for a cwd. */
export function encodedCwd(cwd: string): string {
	return `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
}

/** A new session under `root/<encoded cwd>/`, the way Pi lays out `<agentDir>/sessions`. */
export function newSession(root: string, cwd = "/home/dev/demo"): SessionManager {
	const dir = join(root, encodedCwd(cwd));
	mkdirSync(dir, { recursive: true });
	return SessionManager.create(cwd, dir);
}

export function userMessage(text: string) {
	return { role: "user" as const, content: [{ type: "text" as const, text }], timestamp: Date.now() };
}

export function assistantMessage(text: string, toolCalls: { name: string; arguments: Record<string, unknown> }[] = []) {
	return {
		role: "assistant" as const,
		content: [
			{ type: "text" as const, text },
			...toolCalls.map((c, i) => ({ type: "toolCall" as const, id: `call_${i}_${c.name}`, name: c.name, arguments: c.arguments })),
		],
		api: "openai-completions" as const,
		provider: "fake",
		model: "fake-model",
		usage: {
			input: 0,
			output: 0,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 0,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason: (toolCalls.length > 0 ? "toolUse" : "stop") as "toolUse" | "stop",
		timestamp: Date.now(),
	};
}

export function toolResult(toolName: string, text: string, isError = false) {
	return {
		role: "toolResult" as const,
		toolCallId: `call_0_${toolName}`,
		toolName,
		content: [{ type: "text" as const, text }],
		isError,
		timestamp: Date.now(),
	};
}

/** A session of one question and its answer, written to disk (Pi writes a file at the first assistant message). */
export function sessionWith(root: string, question: string, cwd?: string): SessionManager {
	const sm = newSession(root, cwd);
	sm.appendMessage(userMessage(question));
	sm.appendMessage(assistantMessage("ok"));
	return sm;
}
