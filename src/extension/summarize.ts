/**
 * A summary of a past session written by the model the person is using, called through the host's own model
 * API (the current model and its configured key); no provider or key of lookback's own. The transcript sent is
 * redacted (the session's secrets do not go to the provider again), and so is the summary that comes back.
 */

import { complete } from "@mariozechner/pi-ai";
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { loadRedaction, redactText, type ToolMessage } from "../core/index.js";

const INSTRUCTIONS = `You summarize an earlier coding-agent session so that it can be reused as context in a new conversation.
Write a short summary (at most 12 lines): the goal, what was decided or found, the commands, files and errors that matter, and what was left open. Plain text, no preamble.`;

/** Characters of the transcript sent: the session's first and last messages, each cut. */
const MESSAGE_CHARS = 1_500;
const TRANSCRIPT_CHARS = 40_000;

export type SummaryResult = { ok: true; text: string } | { ok: false; error: string };

/** Whether the host gives this extension a model to call (a current model and a way to its key). */
export function canSummarize(ctx: ExtensionContext): boolean {
	return Boolean(ctx.model && typeof ctx.modelRegistry?.getApiKeyAndHeaders === "function");
}

export async function summarizeSession(
	ctx: ExtensionContext,
	title: string,
	messages: readonly ToolMessage[],
	signal?: AbortSignal,
): Promise<SummaryResult> {
	const model = ctx.model;
	if (!model || !canSummarize(ctx)) return { ok: false, error: "this host gives extensions no model to call" };
	await loadRedaction();
	const auth = await ctx.modelRegistry.getApiKeyAndHeaders(model);
	if (!auth.ok) return { ok: false, error: auth.error };
	const transcript = summaryTranscript(messages);
	const reply = await complete(
		model,
		{
			systemPrompt: INSTRUCTIONS,
			messages: [{ role: "user", content: `Session "${redactText(title)}":\n\n${transcript}`, timestamp: Date.now() }],
		},
		{ apiKey: auth.apiKey, headers: auth.headers, signal },
	);
	if (reply.stopReason === "error" || reply.stopReason === "aborted") return { ok: false, error: reply.errorMessage ?? reply.stopReason };
	const text = reply.content
		.filter((c): c is { type: "text"; text: string } => c.type === "text")
		.map((c) => c.text)
		.join("")
		.trim();
	return text ? { ok: true, text: redactText(text) } : { ok: false, error: "the model answered with no text" };
}

/** What the model is sent: each message redacted whole, then cut; the session's first and last messages within the budget. */
function summaryTranscript(messages: readonly ToolMessage[]): string {
	return messages
		.map((m) => `[${m.role}] ${redactText(m.text).slice(0, MESSAGE_CHARS)}`)
		.join("\n\n")
		.slice(0, TRANSCRIPT_CHARS);
}
