/** A message as the model sees it, the host's view of session files, and the window around a hit. */

import { DEFAULTS, mebibytes } from "../defaults.js";
import type { LookbackIndex } from "../lookback.js";
import type { BranchState } from "../parse/branch.js";
import type { Role } from "../parse/entry-text.js";
import type { AgentKind } from "../parse/source.js";
import type { SessionMessage } from "../read/sessions.js";
import type { ReadRange } from "../search/search.js";
import { readInChunks } from "../sync/file-sync.js";

/** A message as the model sees it. */
export interface ToolMessage {
	entryId: string;
	role: Role;
	time?: string;
	branchState: BranchState;
	tool?: string;
	text: string;
	textTruncated?: true;
}

/** The host's view of session files: their size now (for the `DEFAULTS.maxFileBytes` rule), and a part of one (snippets from the unstored middle of long entries). */
export interface HostFiles {
	sizeOf?(path: string): number | undefined;
	readRange?: ReadRange;
}

/** A message cut to `maxChars` (marked `textTruncated`). */
export function toolMessage(m: SessionMessage, maxChars: number): ToolMessage {
	const cut = m.text.length > maxChars;
	return {
		entryId: m.entryId,
		role: m.role,
		time: m.time,
		branchState: m.branchState,
		tool: m.tool,
		text: cut ? `${m.text.slice(0, maxChars)}…` : m.text,
		...(cut ? { textTruncated: true as const } : {}),
	};
}

/** The error for a session file too large to read, or undefined (another agent's append-only files are read whatever their size). */
export function oversizeError(path: string, files: HostFiles, agent?: AgentKind): string | undefined {
	if (agent && readInChunks({ path, agent })) return undefined;
	const size = files.sizeOf?.(path);
	if (size === undefined || size <= DEFAULTS.maxFileBytes) return undefined;
	return `session file is ${(size / 2 ** 20).toFixed(1)} MiB, over the ${mebibytes(DEFAULTS.maxFileBytes)} limit lookback reads: ${path}`;
}

/** The agent of an indexed session file (undefined when it is not indexed). */
function agentOf(index: LookbackIndex, path: string): AgentKind | undefined {
	try {
		return index.session(path).agent;
	} catch {
		return undefined;
	}
}

/** The window around a hit on its branch, and the session's first and last messages. */
export interface HitContext {
	branchTip: string;
	window: ToolMessage[];
	bookends: { first: ToolMessage[]; last: ToolMessage[] };
	/** The branch has this many messages in all. */
	branchMessages: number;
	error?: string;
}

export function hitContext(index: LookbackIndex, hit: { path: string; entryId: string }, files: HostFiles = {}): HitContext {
	const error = oversizeError(hit.path, files, agentOf(index, hit.path));
	if (error) return { branchTip: "", window: [], bookends: { first: [], last: [] }, branchMessages: 0, error };
	// The window and the branch's two ends only: a long session's other messages are never read or inflated.
	const view = index.read(hit.path, { around: hit.entryId, window: DEFAULTS.hitWindow, bookends: DEFAULTS.bookends });
	const cut = (m: SessionMessage) => toolMessage(m, DEFAULTS.replyMessageChars);
	const window = view.messages.map(cut);
	const shown = new Set(window.map((m) => m.entryId));
	return {
		branchTip: view.branchTip,
		window,
		bookends: {
			first: (view.bookends?.first ?? []).map(cut).filter((m) => !shown.has(m.entryId)),
			last: (view.bookends?.last ?? []).map(cut).filter((m) => !shown.has(m.entryId)),
		},
		branchMessages: view.total,
	};
}
