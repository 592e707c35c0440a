/** `/lookback QUERY` for people inside Pi: pick a hit, then resume it or put a summary of it into the conversation. */

import type { ExtensionAPI, ExtensionCommandContext } from "@mariozechner/pi-coding-agent";
import { discover, type ToolHit } from "../core/index.js";
import { summaryLines } from "./render.js";
import { fileSize, sharedIndex, syncBeforeSearch } from "./shared-index.js";

function hitSummary(hit: ToolHit): string {
	const around = hit.context?.window.map((m) => `[${m.role}] ${m.text.replace(/\s+/g, " ").slice(0, 400)}`).join("\n") ?? hit.snippet;
	return `From an earlier session "${hit.name ?? hit.sessionId}" (${hit.cwd ?? ""}, ${hit.time ?? ""}; ${hit.resumeHint}):\n${around}`;
}

export async function runLookbackCommand(pi: ExtensionAPI, args: string, ctx: ExtensionCommandContext): Promise<void> {
	const opened = await sharedIndex(ctx.sessionManager.getSessionDir() || undefined);
	const query = args.trim();
	if (query.length === 0) {
		const state = await syncBeforeSearch(opened);
		const s = opened.index.stats();
		const status = `lookback: ${s.sessions} sessions, ${s.indexedEntries} messages indexed, index ${(s.indexBytes / 1e6).toFixed(1)} MB at ${opened.indexPath}${state.indexing ? `; indexing ${state.indexing.done}/${state.indexing.total}` : ""}`;
		ctx.ui.notify(status, "info");
		return;
	}
	await syncBeforeSearch(opened);
	const reply = discover(opened.index, { query, limit: 10 }, { sizeOf: fileSize, full: true });
	if (!ctx.hasUI || reply.results.length === 0) {
		ctx.ui.notify(summaryLines(reply as never).join("\n") || `no session matches "${query}"`, "info");
		return;
	}
	const labels = reply.results.map((h, i) => `${i + 1}. ${h.name ?? h.sessionId.slice(0, 13)} · ${h.project} · ${(h.time ?? "").slice(0, 10)} — ${h.snippet.slice(0, 80)}`);
	const picked = await ctx.ui.select(`lookback: ${query}`, labels);
	const hit = picked === undefined ? undefined : reply.results[labels.indexOf(picked)];
	if (!hit) return;
	const action = await ctx.ui.select(hit.name ?? hit.sessionId, ["Insert a summary of this hit into the conversation", "Resume this session"]);
	if (action?.startsWith("Resume")) await ctx.switchSession(hit.path);
	else if (action) pi.sendMessage({ customType: "lookback", content: hitSummary(hit), display: true });
}
