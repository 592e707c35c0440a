/**
 * The MCP tools over a team's bucket (`lookback mcp --remote URL`, or `LOOKBACK_REMOTE` in the server's environment):
 * the same four tools and arguments, answered from every shard (src/node/team/remote-replies.ts). The team is opened
 * at the first call and kept, so that later calls read what its workers hold (warm).
 */

import { LookbackError } from "../core/errors.js";
import { teamBrowse, teamDiscover, teamRead, teamStatus } from "../node/team/remote-replies.js";
import { RemoteTeam } from "../node/team/remote-team.js";
import type { Arguments } from "./schema.js";
import type { ToolName } from "./tool-specs.js";

const teams = new Map<string, Promise<RemoteTeam>>();

function teamOf(url: string): Promise<RemoteTeam> {
	let team = teams.get(url);
	if (!team) {
		team = RemoteTeam.open(url);
		teams.set(url, team);
		team.catch(() => teams.delete(url)); // the next call tries again
	}
	return team;
}

const str = (args: Arguments, name: string) => (typeof args[name] === "string" ? (args[name] as string) : undefined);
const int = (args: Arguments, name: string) => (typeof args[name] === "number" ? (args[name] as number) : undefined);

function filters(args: Arguments) {
	return {
		project: str(args, "project"),
		agent: str(args, "agent"),
		since: str(args, "since"),
		until: str(args, "until"),
		scope: str(args, "scope"),
		gone: str(args, "gone"),
	};
}

export const REMOTE_RUNS: Record<ToolName, (url: string, args: Arguments) => Promise<object>> = {
	search_sessions: async (url, args) => {
		if (args.sessionId !== undefined)
			throw new LookbackError("bad-argument", "a search inside one session is not offered over a team yet: read_session reads it");
		const variants = args.queryVariants;
		return teamDiscover(
			await teamOf(url),
			{
				query: str(args, "query") ?? "",
				...(Array.isArray(variants) ? { variants: variants as string[] } : {}),
				...filters(args),
				role: str(args, "role"),
				branch: str(args, "branch"),
				limit: int(args, "limit"),
			} as Parameters<typeof teamDiscover>[1],
			args.detail === "full",
		);
	},
	read_session: async (url, args) => {
		const around = str(args, "aroundMessageId");
		const offset = int(args, "offset");
		const limit = int(args, "limit");
		if (around !== undefined && (offset !== undefined || limit !== undefined))
			throw new LookbackError("bad-argument", "give aroundMessageId (a window around an entry) or offset and limit (a page), not both");
		const branchTip = str(args, "branchTip");
		const team = await teamOf(url);
		const id = str(args, "sessionId") ?? "";
		if (around !== undefined) return teamRead(team, "scroll", id, { aroundMessageId: around, window: int(args, "window"), branchTip });
		if (offset !== undefined || limit !== undefined) return teamRead(team, "readPage", id, { offset, limit, branchTip });
		return teamRead(team, "readWhole", id, { branchTip });
	},
	list_sessions: async (url, args) =>
		teamBrowse(await teamOf(url), { ...filters(args), limit: int(args, "limit") } as Parameters<typeof teamBrowse>[1]),
	index_status: async (url) => teamStatus(await teamOf(url)),
};
