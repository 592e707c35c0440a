/**
 * `/lookback [QUERY]` for people inside Pi and omp. With a TUI it opens the search overlay and runs the
 * action picked there; without one (print and RPC modes) it answers in text: the index status, or a list to
 * pick a hit from. `--resume PATH` and `--new-session PATH` are the actions a key binding hands over as a command.
 */

import type { ExtensionAPI, ExtensionCommandContext, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { agentFacts, discover, errorMessage, loadRedaction, type ToolHit, terminalSafe } from "../core/index.js";
import type { NodeIndex } from "../node/open.js";
import { restoreIndexed } from "../node/restore.js";
import { excerptText } from "./excerpt.js";
import { runAction } from "./handoff.js";
import { liveContextFilter } from "./live-context.js";
import { notify } from "./notify.js";
import { LookbackOverlay, type OverlayAction, type OverlayActionKind } from "./overlay.js";
import { overlayPreview, overlayResults, sessionRow } from "./overlay-results.js";
import { hostIndex } from "./shared-index.js";
import { summaryLines } from "./summary-lines.js";

/**
 * Opens the overlay; `shown` is false where the host has no TUI to show it in (its `custom` returns at once).
 * `redraw` asks the TUI for a frame: Pi 1.6 sets the editor's text without drawing it until the next key.
 */
async function openOverlay(
	opened: NodeIndex,
	query: string,
	ctx: ExtensionContext,
): Promise<{ shown: boolean; action?: OverlayAction; redraw?: () => void }> {
	let shown = false;
	let redraw: (() => void) | undefined;
	const exclude = liveContextFilter(ctx.sessionManager);
	const source = {
		search: (line: string) => overlayResults(opened.index, line, exclude),
		preview: (row: Parameters<typeof overlayPreview>[1]) => overlayPreview(opened.index, row, opened.files),
	};
	const action = await ctx.ui.custom<OverlayAction | undefined>(
		(tui, theme, _keybindings, done) => {
			shown = true;
			redraw = () => tui.requestRender();
			return new LookbackOverlay(tui, theme, source, done, query);
		},
		{ overlay: true, overlayOptions: { anchor: "top-left", width: "100%", maxHeight: "100%" } },
	);
	return { shown, action: action ?? undefined, redraw };
}

/** `/lookback` or the key binding: the overlay, then the picked action; false when there is no TUI. */
export async function lookbackOverlay(query: string, ctx: ExtensionContext): Promise<boolean> {
	if (!ctx.hasUI) return false;
	const { opened } = await hostIndex(ctx.sessionManager.getSessionDir() || undefined).fresh();
	const { shown, action, redraw } = await openOverlay(opened, query, ctx);
	if (action) {
		try {
			await runAction(opened, action, ctx);
		} finally {
			redraw?.();
		}
	}
	return shown;
}

const TYPED_ACTIONS: Record<string, OverlayActionKind> = { "--resume": "resume", "--new-session": "new-session" };

export async function runLookbackCommand(pi: ExtensionAPI, args: string, ctx: ExtensionCommandContext): Promise<void> {
	const query = args.trim();
	const typed = /^(--resume|--new-session)\s+(.+)$/.exec(query);
	if (typed) {
		const opened = await hostIndex(ctx.sessionManager.getSessionDir() || undefined).open();
		try {
			await runAction(opened, { kind: TYPED_ACTIONS[typed[1]], row: sessionRow(opened.index, typed[2].trim()) }, ctx);
		} catch (e) {
			notify(ctx, `lookback: ${errorMessage(e)}`, "error");
		}
		return;
	}
	if (await lookbackOverlay(query, ctx)) return;
	await answerInText(pi, query, ctx);
}

function hitExcerpt(hit: ToolHit): string {
	return excerptText(
		{ title: hit.name ?? hit.sessionId, project: hit.cwd ?? hit.project, time: hit.time, resumeHint: hit.resumeHint },
		hit.context?.window ?? [],
		hit.snippet,
	);
}

async function answerInText(pi: ExtensionAPI, query: string, ctx: ExtensionCommandContext): Promise<void> {
	const { opened, state } = await hostIndex(ctx.sessionManager.getSessionDir() || undefined).fresh();
	if (query.length === 0) {
		const s = opened.index.stats();
		const status = `lookback: ${s.sessions} sessions, ${s.indexedEntries} messages indexed, index ${(s.indexBytes / 1e6).toFixed(1)} MB at ${opened.indexPath}${state.indexing ? `; indexing ${state.indexing.done}/${state.indexing.total}` : ""}`;
		notify(ctx, status, "info");
		return;
	}
	const reply = discover(opened.index, { query }, { sizeOf: opened.files.sizeOf, full: true });
	if (!ctx.hasUI || reply.results.length === 0) {
		notify(ctx, summaryLines({ ...reply, ...state }).join("\n") || `no session matches "${query}"`, "info");
		return;
	}
	const labels = reply.results.map((h, i) =>
		terminalSafe(
			`${i + 1}. ${h.name ?? h.sessionId.slice(0, 13)} · ${h.project} · ${(h.time ?? "").slice(0, 10)} — ${h.snippet.slice(0, 80)}`,
		),
	);
	const picked = await ctx.ui.select(terminalSafe(`lookback: ${query}`), labels);
	const hit = picked === undefined ? undefined : reply.results[labels.indexOf(picked)];
	if (!hit) return;
	const action = await ctx.ui.select(terminalSafe(hit.name ?? hit.sessionId), [
		"Insert a summary of this hit into the conversation",
		"Resume this session",
	]);
	if (action?.startsWith("Resume") && !agentFacts(hit.agent).opensInPi)
		notify(ctx, `lookback: a ${hit.agent} session opens in ${hit.agent}: ${hit.resumeHint}`, "info");
	else if (action?.startsWith("Resume")) {
		// A session whose file is gone is written back from lookback's archive first.
		if (hit.source === "gone") {
			restoreIndexed(opened, hit.path);
			await hostIndex().settle();
		}
		await ctx.switchSession(hit.path);
	} else if (action) {
		await loadRedaction();
		pi.sendMessage({ customType: "lookback", content: hitExcerpt(hit), display: true });
	}
}
