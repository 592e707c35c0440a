/** The read reply: a session's branch whole, or its first and last messages when long. */

import { DEFAULTS } from "../defaults.js";
import { LookbackError } from "../errors.js";
import type { LookbackIndex } from "../lookback.js";
import type { SessionSummary } from "../read/session-rows.js";
import { type HostFiles, oversizeError, type ToolMessage, toolMessage } from "./messages.js";

export interface ReadReply {
	mode: "read";
	session: SessionSummary;
	branchTip: string;
	total: number;
	messages: ToolMessage[];
	/** Messages left out between the head and the tail of a large session. */
	omitted?: { count: number; fromEntryId: string; toEntryId: string };
}

/** The active branch (or the one ending at `branchTip`); past `DEFAULTS.readHead` + `DEFAULTS.readTail` messages, its head and tail. */
export function readWhole(index: LookbackIndex, ref: string, options: HostFiles & { branchTip?: string } = {}): ReadReply {
	const { path, agent } = index.session(ref);
	const error = oversizeError(path, options, agent);
	if (error) throw new LookbackError("file-too-large", error);
	const view = index.read(path, { branchTip: options.branchTip });
	const all = view.messages.map((m) => toolMessage(m, Number.MAX_SAFE_INTEGER));
	const { readHead, readTail } = DEFAULTS;
	const reply = { mode: "read" as const, session: view.session, branchTip: view.branchTip, total: view.total };
	if (all.length <= readHead + readTail) return { ...reply, messages: all };
	const gap = all.slice(readHead, all.length - readTail);
	return {
		...reply,
		messages: [...all.slice(0, readHead), ...all.slice(-readTail)],
		omitted: { count: gap.length, fromEntryId: gap[0].entryId, toEntryId: gap[gap.length - 1].entryId },
	};
}
