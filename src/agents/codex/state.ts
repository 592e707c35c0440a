/** What one parse of a Codex rollout carries from line to line and from chunk to chunk. */

import type { ParseState, SessionEntry } from "../../core/parse/session-format.js";

/** What one parse of a Codex file carries from chunk to chunk. */
export interface CodexState {
	/** Records read (a line counter for ids when no byte offsets are known). */
	lines: number;
	/** Tool name by call_id, to name the tool of a result. */
	toolNames: Map<string, string>;
	/** The person's last prompts: the same words mirrored by another record are indexed once. */
	recentPrompts: string[];
	/** For each user turn: the entry the turn hangs on (a rollback of n turns goes back to the n-th last). */
	turns: (string | null)[];
	/** A fork or sub-agent: the parent's replayed history is being skipped. */
	replay: boolean;
	/** A turn of the replayed history has started and not ended. */
	replayedTurnOpen?: boolean;
	/** A sub-agent's own records start at this ordinal (0.17x writes it in `session_meta`). */
	ownFrom?: number;
	/** This file's own thread id (its first `session_meta`). */
	ownId?: string;
	newestVersion?: string;
	/** A name given to the thread in this chunk (`thread_name_updated`). */
	title?: string;
	/** The model of the turn (`turn_context`) and the provider of the session (`session_meta`). */
	model?: string;
	provider?: string;
	/** The last model answer made in this chunk that has no usage yet: the usage reported after it is its own. */
	answer?: SessionEntry;
	/** 0.17x writes each response's usage (`token_usage_record`): then the running `token_count`s are not read. */
	records: boolean;
	/** The thread's running totals at the last `token_count`, to count what each adds. */
	totals?: Record<string, unknown>;
}

export function codexState(state: ParseState): CodexState {
	state.format ??= { lines: 0, toolNames: new Map(), recentPrompts: [], turns: [], replay: false, records: false } satisfies CodexState;
	return state.format as CodexState;
}

export type Place = { id: string; parentId: string | null; seq: number; timestamp?: string };

export interface LineContext {
	state: ParseState;
	cs: CodexState;
	id: string;
	timestamp?: string;
}
