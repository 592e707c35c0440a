/**
 * The calls the Pi and omp tool makes of its indexer process (src/indexer.ts registers them): `session_search`
 * runs there, on the indexer's own connection, so that Pi's event loop — its TUI and keystrokes — never runs a
 * query, and Pi's process never loads the engine or opens the index for the tool.
 */

import type { IndexerCall } from "../node/indexer-work.js";
import { type LiveContext, liveFilter } from "./live-context.js";
import type { SessionSearchParams } from "./params.js";
import { runSessionSearch } from "./run-tool.js";

/** What the host sends with a `session_search` call. */
export interface SessionSearchCall {
	params: SessionSearchParams;
	live?: LiveContext;
}

export const TOOL_CALLS: Record<string, IndexerCall> = {
	session_search: async (index, args) => {
		const { params, live } = args as SessionSearchCall;
		// A team's bucket in the environment: the tool answers from its shards (remote-tool.ts), loaded only then.
		const remote = process.env.LOOKBACK_REMOTE?.trim();
		if (remote) return (await import("./remote-tool.js")).runRemoteSearch(remote, params);
		return runSessionSearch(index, params, liveFilter(live));
	},
};
