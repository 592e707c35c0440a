/** What the overlay shows for a query line: ranked hits (or recent sessions when empty) and the preview of one. */

import {
	type AgentKind,
	type BranchState,
	browseReply,
	DEFAULTS,
	discover,
	errorMessage,
	flatten,
	type HostFiles,
	hitContext,
	type LookbackIndex,
	readWhole,
	splitInlineFilters,
	type ToolHit,
	type ToolMessage,
} from "../core/index.js";
import { diskFiles } from "../node/session-files.js";

/** One line of the result list: a hit, or a recent session (no entryId) when the query is empty. */
export interface OverlayRow {
	sessionId: string;
	path: string;
	title: string;
	project: string;
	time?: string;
	branchState?: BranchState;
	/** Marked with the core's « » around every match. */
	snippet: string;
	entryId?: string;
	resumeHint: string;
	/** The agent that wrote it: Pi and omp open each other's sessions; another agent's is resumed by its own command. */
	agent: AgentKind;
	/** When its file was found gone (it is read from lookback's archive, and restored before it is resumed). */
	goneAt?: string;
	hit?: ToolHit;
}

export interface OverlayResults {
	/** "recent sessions" or "3 of 12 sessions". */
	heading: string;
	rows: OverlayRow[];
	/** A filter or query the index cannot use, said in words. */
	error?: string;
	notice?: string;
}

export interface OverlayPreview {
	messages: ToolMessage[];
	/** The hit's entry, when the row is a hit. */
	focus?: string;
	error?: string;
}

/** Rows the overlay lists: more than a reply to the model, as a person scrolls them. */
const LIMIT = 50;
/** Characters of a recent session's first prompt shown as its snippet. */
const PREVIEW_CHARS = 300;

export function overlayResults(
	index: LookbackIndex,
	line: string,
	exclude?: (hit: { sessionPath: string; entryId: string }) => boolean,
): OverlayResults {
	const { query, filters, error } = splitInlineFilters(line);
	if (error) return { heading: "", rows: [], error };
	try {
		if (query.trim().length === 0) {
			const { sessions } = browseReply(index, {
				limit: LIMIT,
				project: filters.project,
				agent: filters.agent,
				since: filters.since,
				until: filters.until,
			});
			const rows = sessions.map((s) => ({
				sessionId: s.sessionId,
				path: s.path,
				title: s.name ?? flatten(s.preview ?? s.sessionId, DEFAULTS.titleChars),
				project: s.project,
				time: s.modified,
				snippet: flatten(s.preview, PREVIEW_CHARS),
				resumeHint: s.resumeHint,
				agent: s.agent,
				...(s.source === "gone" ? { goneAt: s.goneAt } : {}),
			}));
			return { heading: "recent sessions", rows };
		}
		const reply = discover(index, { query, ...filters, limit: LIMIT, exclude });
		const rows = reply.results.map((hit) => ({
			sessionId: hit.sessionId,
			path: hit.path,
			title: hit.name ?? hit.sessionId,
			project: hit.project,
			time: hit.time,
			branchState: hit.branchState,
			snippet: hit.snippet,
			entryId: hit.entryId,
			resumeHint: hit.resumeHint,
			agent: hit.agent,
			...(hit.source === "gone" ? { goneAt: hit.goneAt } : {}),
			hit,
		}));
		return {
			heading: `${rows.length} of ${reply.total} sessions`,
			rows,
			...(reply.error ? { error: reply.error } : {}),
			...(reply.notice ? { notice: reply.notice } : {}),
		};
	} catch (e) {
		return { heading: "", rows: [], error: errorMessage(e) };
	}
}

/** The messages around a hit, or a recent session's first and last messages. */
export function overlayPreview(index: LookbackIndex, row: OverlayRow, files: HostFiles = diskFiles): OverlayPreview {
	try {
		if (row.entryId) {
			const context = row.hit?.context ?? hitContext(index, { path: row.path, entryId: row.entryId }, { sizeOf: files.sizeOf });
			return { messages: context.window, focus: row.entryId, ...(context.error ? { error: context.error } : {}) };
		}
		return { messages: readWhole(index, row.path, { sizeOf: files.sizeOf }).messages };
	} catch (e) {
		return { messages: [], error: errorMessage(e) };
	}
}

/** A session named by path or id as a row (for the actions typed as a command). */
export function sessionRow(index: LookbackIndex, ref: string): OverlayRow {
	const s = index.read(ref, { window: 1 }).session;
	const title = s.name ?? flatten(s.firstPrompt ?? s.sessionId, DEFAULTS.titleChars);
	return {
		sessionId: s.sessionId,
		path: s.path,
		title,
		project: s.project,
		time: s.modified,
		snippet: "",
		resumeHint: s.resumeHint,
		agent: s.agent,
		...(s.source === "gone" ? { goneAt: s.goneAt } : {}),
	};
}
