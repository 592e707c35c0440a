/** The page reply: a session's branch read by position, so a client can walk a long session page by page. */

import { DEFAULTS } from "../defaults.js";
import { LookbackError } from "../errors.js";
import type { LookbackIndex } from "../lookback.js";
import type { SessionSummary } from "../read/session-rows.js";
import { type HostFiles, oversizeError, type ToolMessage, toolMessage } from "./messages.js";

export interface PageReply {
	mode: "page";
	session: SessionSummary;
	branchTip: string;
	/** Position of the first message shown in the branch, and the branch's length. */
	offset: number;
	total: number;
	messages: ToolMessage[];
	/** The offset of the next page, while there is one. */
	nextOffset?: number;
}

export interface PageOptions extends HostFiles {
	/** First message to show, 0-based (default 0). */
	offset?: number;
	/** Messages to show (default `DEFAULTS.readPage`, at most `DEFAULTS.readPageMax`). */
	limit?: number;
	branchTip?: string;
}

/** Messages [offset, offset + limit) of the active branch (or of the one ending at `branchTip`). */
export function readPage(index: LookbackIndex, ref: string, options: PageOptions = {}): PageReply {
	const { path } = index.session(ref);
	const error = oversizeError(path, options);
	if (error) throw new LookbackError("file-too-large", error);
	const view = index.read(path, { branchTip: options.branchTip });
	const offset = Math.max(0, options.offset ?? 0);
	const limit = Math.max(1, Math.min(options.limit ?? DEFAULTS.readPage, DEFAULTS.readPageMax));
	const end = offset + limit;
	return {
		mode: "page",
		session: view.session,
		branchTip: view.branchTip,
		offset,
		total: view.messages.length,
		messages: view.messages.slice(offset, end).map((m) => toolMessage(m, DEFAULTS.replyMessageChars)),
		...(end < view.messages.length ? { nextOffset: end } : {}),
	};
}
