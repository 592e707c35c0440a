/** The scroll reply: a window of messages around an entry, on the branch through it (or the branch a previous reply named). */

import { DEFAULTS } from "../defaults.js";
import { LookbackError } from "../errors.js";
import type { LookbackIndex } from "../lookback.js";
import type { SessionSummary } from "../read/session-rows.js";
import { type HostFiles, oversizeError, type ToolMessage, toolMessage } from "./messages.js";

export interface ScrollReply {
	mode: "scroll";
	session: SessionSummary;
	branchTip: string;
	aroundMessageId: string;
	/** Position of the first message shown in the branch, and the branch's length. */
	offset: number;
	total: number;
	messages: ToolMessage[];
}

export interface ScrollOptions extends HostFiles {
	aroundMessageId: string;
	/** Messages on each side (default `DEFAULTS.readWindow`, at most `DEFAULTS.readMaxWindow`). */
	window?: number;
	branchTip?: string;
}

export function scroll(index: LookbackIndex, ref: string, options: ScrollOptions): ScrollReply {
	const { path, agent } = index.session(ref);
	const error = oversizeError(path, options, agent);
	if (error) throw new LookbackError("file-too-large", error);
	const window = Math.max(1, Math.min(options.window ?? DEFAULTS.readWindow, DEFAULTS.readMaxWindow));
	const view = index.read(path, { around: options.aroundMessageId, window, branchTip: options.branchTip });
	return {
		mode: "scroll",
		session: view.session,
		branchTip: view.branchTip,
		aroundMessageId: options.aroundMessageId,
		offset: view.offset,
		total: view.total,
		messages: view.messages.map((m) => toolMessage(m, DEFAULTS.replyMessageChars)),
	};
}
