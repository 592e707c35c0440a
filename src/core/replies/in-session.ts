/** The in-session reply: every place one session matches a query, in order, with entry ids to read around. */

import { LookbackError } from "../errors.js";
import type { LookbackIndex } from "../lookback.js";
import type { SessionSummary } from "../read/session-rows.js";
import { sessionSummary } from "../read/session-rows.js";
import type { InSessionRequest, InSessionResponse } from "../search/in-session.js";
import { type HostFiles, oversizeError } from "./messages.js";

export interface InSessionReply extends InSessionResponse {
	mode: "in-session";
	session: SessionSummary;
}

/** The matches of `request.query` in the session `ref`, one page (`next` names the offset of the next). */
export function inSessionReply(index: LookbackIndex, ref: string, request: InSessionRequest, files: HostFiles = {}): InSessionReply {
	const row = index.session(ref);
	const tooLarge = oversizeError(row.path, files);
	if (tooLarge) throw new LookbackError("file-too-large", tooLarge);
	const found = index.searchSession(row.path, { ...request, readRange: files.readRange });
	return { mode: "in-session", session: sessionSummary(row), ...found };
}
