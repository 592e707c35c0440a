/** The browse reply: recent sessions, each with a preview of its first prompt. */

import { DEFAULTS } from "../defaults.js";
import type { LookbackIndex } from "../lookback.js";
import type { SessionSummary } from "../read/session-rows.js";
import type { BrowseOptions } from "../read/sessions.js";

export interface BrowseReply {
	mode: "browse";
	total: number;
	sessions: (Omit<SessionSummary, "firstPrompt"> & { preview?: string })[];
}

/** Recent sessions (default `DEFAULTS.searchLimit` of them: the model's page is a search's, not the CLI's list). */
export function browseReply(index: LookbackIndex, options: BrowseOptions): BrowseReply {
	const sessions = index
		.browse({ ...options, limit: options.limit ?? DEFAULTS.searchLimit })
		.map(({ firstPrompt, ...s }) => ({ ...s, preview: firstPrompt }));
	return { mode: "browse", total: sessions.length, sessions };
}
