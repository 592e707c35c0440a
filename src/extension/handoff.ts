/**
 * What a found session does for the conversation: its excerpt or a summary into the editor, resuming it,
 * a new session seeded with its summary, its resume command on the clipboard, an export of it to files. Each
 * goes through the host's own API; where the host gives this context no such call, the person is told what to
 * do instead. What leaves lookback this way is redacted (excerpt.ts, summarize.ts, export-files.ts).
 */

import { copyToClipboard, type ExtensionCommandContext, type ExtensionContext } from "@mariozechner/pi-coding-agent";
import { agentFacts, errorMessage, loadRedaction, readWhole, redactText, terminalSafe } from "../core/index.js";
import type { NodeIndex } from "../node/open.js";
import { restoreIndexed } from "../node/restore.js";
import { excerptText } from "./excerpt.js";
import { exportFiles } from "./export-files.js";
import { notify } from "./notify.js";
import type { OverlayAction } from "./overlay.js";
import { type OverlayRow, overlayPreview } from "./overlay-results.js";
import { hostIndex } from "./shared-index.js";
import { canSummarize, summarizeSession } from "./summarize.js";

/** The custom message type a seeded session starts with. */
const SEED_TYPE = "lookback";

/** A command context has the session switch; a shortcut's context does not (Pi and omp give shortcuts the plain one). */
function sessionControl(ctx: ExtensionContext): ExtensionCommandContext | undefined {
	const c = ctx as Partial<ExtensionCommandContext>;
	return typeof c.switchSession === "function" && typeof c.newSession === "function" ? (ctx as ExtensionCommandContext) : undefined;
}

function insert(ctx: ExtensionContext, text: string): void {
	const before = ctx.ui.getEditorText().trimEnd();
	ctx.ui.setEditorText(before ? `${before}\n\n${text}` : text);
}

function excerpt(opened: NodeIndex, row: OverlayRow): string {
	const preview = overlayPreview(opened.index, row, opened.files);
	return excerptText(row, preview.messages, row.snippet);
}

/** The summary text with where it comes from, or undefined after telling the person why not (and offering the excerpt). */
async function summary(opened: NodeIndex, row: OverlayRow, ctx: ExtensionContext): Promise<string | undefined> {
	const offerExcerpt = async (why: string) => {
		if (await ctx.ui.confirm("lookback: no summary", `${why}. Insert the excerpt around the hit instead?`))
			insert(ctx, excerpt(opened, row));
		return undefined;
	};
	if (!canSummarize(ctx)) return offerExcerpt("This host gives extensions no model to call");
	ctx.ui.setStatus("lookback", terminalSafe(`summarizing "${row.title}" with ${ctx.model?.id ?? "the current model"}…`));
	try {
		const messages = readWhole(opened.index, row.path, { sizeOf: opened.files.sizeOf }).messages;
		const result = await summarizeSession(ctx, row.title, messages);
		if (!result.ok) return offerExcerpt(`The model gave no summary: ${result.error}`);
		return `${redactText(`Summary of an earlier session "${row.title}" (${row.project}; ${row.resumeHint}):`)}\n${result.text}`;
	} catch (e) {
		return offerExcerpt(`The model gave no summary: ${errorMessage(e)}`);
	} finally {
		ctx.ui.setStatus("lookback", undefined);
	}
}

/** Where the context has no session switch: the command that does it, in the editor, one Enter away. */
function viaCommand(ctx: ExtensionContext, command: string, what: string): void {
	ctx.ui.setEditorText(command);
	notify(ctx, `lookback: press Enter to ${what} (a key binding cannot switch sessions itself)`, "info");
}

/**
 * Do what the overlay's key asked for. `reindex` brings the index up to date after a restore (by default the
 * host's indexer process, which serves the same index file as `opened`).
 */
export async function runAction(
	opened: NodeIndex,
	action: OverlayAction,
	ctx: ExtensionContext,
	reindex: () => Promise<unknown> = () => hostIndex().settle(),
): Promise<void> {
	const { row } = action;
	const control = sessionControl(ctx);
	await loadRedaction(); // what an action hands on is redacted (excerpt.ts, summarize.ts, the export)
	switch (action.kind) {
		case "excerpt":
			insert(ctx, excerpt(opened, row));
			return;
		case "summary": {
			const text = await summary(opened, row, ctx);
			if (text) insert(ctx, text);
			return;
		}
		case "resume":
			// Pi and omp read each other's files; another agent's session is resumed by that agent: its command is copied.
			if (!opensInPi(row)) return copyResume(ctx, row, `a ${row.agent} session opens in ${row.agent}, not here`);
			if (!control) return viaCommand(ctx, `/lookback --resume ${row.sessionId}`, `resume "${row.title}"`);
			// A session whose file is gone is written back from the archive first.
			if (row.goneAt && !(await restoreRow(opened, row, ctx, reindex))) return;
			await control.switchSession(row.path);
			return;
		case "restore":
			await restoreRow(opened, row, ctx, reindex);
			return;
		case "new-session": {
			if (!control) return viaCommand(ctx, `/lookback --new-session ${row.sessionId}`, `start a new session from "${row.title}"`);
			const text = await summary(opened, row, ctx);
			if (!text) return;
			await control.newSession({ setup: async (sm) => void sm.appendCustomMessageEntry(SEED_TYPE, text, true) });
			return;
		}
		case "copy":
			return copyResume(ctx, row);
		case "export":
			return exportFiles(opened, row, ctx);
	}
}

/** Write a gone session's file back from the archive and say so; false (after saying why) when it cannot be. */
async function restoreRow(opened: NodeIndex, row: OverlayRow, ctx: ExtensionContext, reindex: () => Promise<unknown>): Promise<boolean> {
	if (!row.goneAt) {
		notify(ctx, `lookback: "${row.title}" is not gone: its file is at ${row.path}`, "info");
		return false;
	}
	try {
		const reply = restoreIndexed(opened, row.path);
		await reindex();
		const written = reply.files.filter((f) => f.outcome === "written");
		// An OpenCode (Kilo Code) session is written to a file for `opencode import` (`kilo import`), never into its database.
		const load = reply.load;
		const where = load ? `${written[0]?.path ?? row.path} for \`${load.agent.command} import\`` : row.path;
		notify(
			ctx,
			`lookback: restored "${row.title}" (${written.length} file${written.length === 1 ? "" : "s"}) to ${where}; ${reply.resumeHint.replace(/^lookback restore \S+ && /, "")} resumes it`,
			"info",
		);
		return true;
	} catch (e) {
		notify(ctx, `lookback: ${errorMessage(e)}`, "error");
		return false;
	}
}

function opensInPi(row: OverlayRow): boolean {
	return agentFacts(row.agent).opensInPi === true;
}

async function copyResume(ctx: ExtensionContext, row: OverlayRow, why?: string): Promise<void> {
	const because = why ? `${why}; ` : "";
	const hint = redactText(row.resumeHint);
	try {
		await copyToClipboard(hint);
		notify(ctx, `lookback: ${because}copied "${hint}"`, "info");
	} catch {
		notify(ctx, `lookback: ${because}no clipboard here; the resume command is: ${hint}`, "warning");
	}
}
