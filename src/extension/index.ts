/**
 * The lookback Pi extension: the `session_search` tool, the `/lookback` command and its overlay, background
 * indexing from session_start on an indexer process, which also answers the tool's searches. A thin face over
 * the core's agent replies. This entry loads only what registration needs (the parameters, the renderers and the
 * host index, the first and last as one bundle, entry-parts.ts):
 * Pi's process never loads the engine or opens the index for the tool, and a session that never searches pays
 * next to nothing (the overlay and `/lookback`, for people, read the index in Pi's process).
 */

import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { Text } from "@mariozechner/pi-tui";
import { loadBundle } from "./bundle-loader.js";
import type * as EntryParts from "./entry-parts.js";
import type { CallArgs } from "./modes.js";
import type { SessionSearchParams } from "./params.js";
import type { renderCall } from "./render.js";
import type { ToolDetails, ToolRun } from "./run-tool.js";
import type { SessionSearchCall } from "./tool-calls.js";

/**
 * entry-parts.ts: its bundle (dist/extension-entry.cjs) where it is current, else the sources. Pi's jiti loads
 * every module of the entry's own (each resolved, transformed, compiled: about 6 ms apiece at every start), so the
 * entry is this file and the bundle's loader, and all else is in the bundle.
 */
function loadEntryParts(): Promise<typeof EntryParts> {
	return loadBundle("extension-entry.cjs", () => import("./entry-parts.js"));
}

const description = ({
	agentLabels,
	DEFAULTS,
	thousands,
}: Awaited<
	ReturnType<typeof loadEntryParts>
>) => `Search every past session on this machine (all projects) of every coding agent: ${agentLabels()}, without re-reading files. Each result names its agent and the command that resumes it; pass agent to search one agent only.
Modes: query → sessions ranked by their best matching message (the top one with the messages around the hit and the session's first and last messages); sessionId → read that session's active branch (first ${DEFAULTS.readHead} and last ${DEFAULTS.readTail} messages when long); sessionId + aroundMessageId → the messages around an entry (pass branchTip to stay on a branch); no arguments → recent sessions; action keyword/content/list → omp-session-store style.
Replies are JSON, at most ${thousands(DEFAULTS.replyMaxChars)} characters (contentTruncated: true when cut). Messages already in this conversation are left out.`;

function themeOf(a: unknown, b: unknown): Parameters<typeof renderCall>[2] {
	const isTheme = (t: unknown) => typeof (t as { fg?: unknown } | undefined)?.fg === "function";
	return (isTheme(a) ? a : b) as Parameters<typeof renderCall>[2];
}

/** The key that opens the overlay. */
export const SHORTCUT = "alt+s";

export default async function lookbackExtension(pi: ExtensionAPI): Promise<void> {
	// What registration needs, in one bundle Node loads itself (Pi's jiti would resolve and transform it module by module).
	const parts = await loadEntryParts();
	const { sessionSearchParams, hostIndex, liveContext, startBackgroundIndex, endSession, renderCall, renderResult } = parts;
	pi.registerTool<typeof sessionSearchParams, ToolDetails>({
		name: "session_search",
		label: "Session search",
		description: description(parts),
		promptSnippet: "session_search: find decisions, commands, errors and code from earlier sessions of Pi and the other coding agents",
		promptGuidelines: [
			'Use session_search when the user refers to earlier work ("like we did last week", "the bug we fixed") instead of asking them to paste it.',
			"Start with a query; then read or scroll the session it returns with sessionId and aroundMessageId.",
		],
		parameters: sessionSearchParams,
		// omp hides extension tools from the model unless they are "essential"; Pi ignores the field.
		...({ loadMode: "essential" } as object),
		async execute(_toolCallId, params, _signal, _onUpdate, ctx) {
			// The search runs in the indexer process: Pi's event loop only awaits its answer.
			const host = hostIndex(ctx.sessionManager.getSessionDir() || undefined);
			const call: SessionSearchCall = { params: params as SessionSearchParams, live: liveContext(ctx.sessionManager) };
			const run = await host.call<ToolRun>("session_search", call);
			return { content: [{ type: "text", text: run.text }], details: run.details };
		},
		// Pi calls renderCall(args, theme, context); omp calls renderCall(args, options, theme).
		renderCall: (args: CallArgs, a: unknown, b?: unknown) => renderCall(Text, args, themeOf(a, b)),
		renderResult: (result, options, theme) => renderResult(Text, result, options, theme),
	});

	pi.registerCommand("lookback", {
		description: "Search past sessions as you type (/lookback [QUERY]); without a TUI, the index status or a list of hits",
		handler: async (args, ctx) => (await import("./command.js")).runLookbackCommand(pi, args, ctx),
	});

	// Alt+S is free in both Pi's and omp's default key maps (Ctrl+letter keys are taken by the editor and app).
	pi.registerShortcut(SHORTCUT, {
		description: "Search past sessions (lookback)",
		handler: async (ctx) => {
			if (!(await (await import("./command.js")).lookbackOverlay("", ctx)))
				ctx.ui.notify("lookback: the search overlay needs the interactive TUI; use /lookback QUERY", "info");
		},
	});

	pi.on("session_start", (_event, ctx) => {
		// Index in the background, on the indexer process: the first index of a large history must not hold up the
		// session. Without a UI (print mode) it waits for a search or the run's end (startBackgroundIndex).
		startBackgroundIndex(ctx.sessionManager.getSessionDir() || undefined, ctx.hasUI ? ctx.ui : undefined, !ctx.hasUI);
	});

	pi.on("session_shutdown", () => {
		endSession();
	});
}
