/**
 * The agents' tools over a team (the MCP server's and the Pi tool's `session_search`, given `LOOKBACK_REMOTE` or
 * `--remote`): the same replies a local index gives, each hit and session naming its machine (`shard`), the shards
 * that could not answer named (`unreachable`). A search runs in two rounds: every shard ranks its matches, the lists
 * are merged (merge.ts), then only the hits the reply shows whole (the first, or all with detail "full") are read
 * around, each by its own shard.
 */

import { LookbackError } from "../../core/errors.js";
import type { BrowseOptions, BrowseReply, SearchRequest, SearchResponse } from "../../core/index.js";
import { type DiscoveryReply, toolHit } from "../../core/replies/discovery.js";
import type { HitContext } from "../../core/replies/messages.js";
import { mergeSearch, type TeamNote } from "../../core/team/merge.js";
import type { RemoteTeam } from "./remote-team.js";

/** What a tool asks of a team: a search, a session's messages (whole, a window, a page), a list. */
export async function teamDiscover(
	team: RemoteTeam,
	request: Omit<SearchRequest, "exclude" | "readRange">,
	full: boolean,
): Promise<DiscoveryReply & TeamNote & { remote: string }> {
	const limit = Math.max(1, request.limit ?? 10);
	const merged = mergeSearch(request.query, await team.fanOut<SearchResponse>("search", [request]), limit);
	const results = await Promise.all(
		merged.results.map(async (hit, i) => {
			const shown = { ...toolHit(hit), shard: hit.shard };
			if (i > 0 && !full) return shown;
			try {
				return { ...shown, context: await team.call<HitContext>(hit.shard, "context", [shown]) };
			} catch {
				return shown; // the hit stands without its context
			}
		}),
	);
	return {
		mode: "discovery",
		query: merged.query,
		...(merged.variants?.length ? { variants: merged.variants } : {}),
		...(merged.correctedQuery ? { correctedQuery: merged.correctedQuery } : {}),
		total: merged.totalSessions,
		results,
		...(merged.notice ? { notice: merged.notice } : {}),
		...(merged.error ? { error: merged.error } : {}),
		remote: team.describe,
		shards: merged.shards,
		unreachable: merged.unreachable,
	};
}

/**
 * A session's messages by one of the read replies (`readWhole`, `scroll`, `readPage`): from the shard that has it.
 * `sessionId` may be `machine:id` to name the machine, as a hit's `shard` says.
 */
export async function teamRead(
	team: RemoteTeam,
	method: "readWhole" | "scroll" | "readPage",
	sessionId: string,
	options: object,
): Promise<object> {
	const named = /^([A-Za-z0-9][A-Za-z0-9._-]{0,63}):(.+)$/.exec(sessionId);
	const ref = named && team.list().some((s) => s.name === named[1]) ? named[2] : sessionId;
	const only = named && ref !== sessionId ? (s: string) => s === named[1] : undefined;
	const fanned = await team.fanOut<object>(method, [ref, options], only);
	if (fanned.answers.length > 1)
		throw new LookbackError(
			"session-ambiguous",
			`session ${ref} is on several machines (${fanned.answers.map((a) => a.shard).join(", ")}): give sessionId as machine:id`,
		);
	const found = fanned.answers[0];
	if (!found) {
		const why = fanned.problems.map((p) => `; shard ${p.shard} did not answer: ${p.error}`).join("");
		throw new LookbackError("session-not-found", `no shard of ${team.describe} has session ${ref}${why}`);
	}
	return { ...found.value, shard: found.shard, unreachable: fanned.problems };
}

/** The newest sessions of every shard. */
export async function teamBrowse(team: RemoteTeam, options: BrowseOptions): Promise<BrowseReply & TeamNote & { remote: string }> {
	const fanned = await team.fanOut<BrowseReply>("browseReply", [options]);
	const sessions = fanned.answers.flatMap(({ shard, value }) => value.sessions.map((s) => ({ ...s, shard })));
	sessions.sort((a, b) => (b.modified ?? "").localeCompare(a.modified ?? ""));
	const kept = sessions.slice(0, options.limit ?? 10);
	return {
		mode: "browse",
		total: kept.length,
		sessions: kept,
		remote: team.describe,
		shards: fanned.answers.map((a) => a.shard),
		unreachable: fanned.problems,
	};
}

/** What the tools' status says of a team: its shards, each with its sessions and when it was published. */
export function teamStatus(team: RemoteTeam): object {
	return {
		remote: team.describe,
		shards: team
			.list()
			.map(({ name, manifest }) => ({ name, sessions: manifest.sessions, publishedAt: manifest.publishedAt, bytes: manifest.size })),
	};
}
