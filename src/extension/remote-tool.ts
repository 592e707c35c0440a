/**
 * `session_search` over a team's bucket, when Pi or omp runs with `LOOKBACK_REMOTE` set: the discovery, read, window
 * and browse modes answered from every shard (src/node/team/remote-replies.ts), in the indexer process like the
 * local calls, the team kept open between calls. Each hit names its machine (`shard`).
 */

import { boundedJson, LookbackError } from "../core/index.js";
import { teamBrowse, teamDiscover, teamRead } from "../node/team/remote-replies.js";
import { RemoteTeam } from "../node/team/remote-team.js";
import { modeOf, searchRequest } from "./modes.js";
import type { SessionSearchParams } from "./params.js";
import type { ToolRun } from "./run-tool.js";
import { summaryLines } from "./summary-lines.js";
import type { ToolReply } from "./tool-reply.js";

let opened: { url: string; team: Promise<RemoteTeam> } | undefined;

function teamOf(url: string): Promise<RemoteTeam> {
	if (opened?.url !== url) {
		const team = RemoteTeam.open(url);
		opened = { url, team };
		team.catch(() => (opened = undefined));
	}
	return opened.team;
}

export async function runRemoteSearch(url: string, params: SessionSearchParams): Promise<ToolRun> {
	const mode = modeOf(params);
	const team = await teamOf(url);
	let reply: object;
	switch (mode) {
		case "discovery":
			reply = await teamDiscover(team, searchRequest(params), params.detail === "full");
			break;
		case "read":
			reply = await teamRead(team, "readWhole", params.sessionId!, { branchTip: params.branchTip });
			break;
		case "scroll":
			reply = await teamRead(team, "scroll", params.sessionId!, {
				aroundMessageId: params.aroundMessageId,
				window: params.window,
				branchTip: params.branchTip,
			});
			break;
		case "browse":
			reply = await teamBrowse(team, {
				limit: params.limit,
				project: params.project,
				since: params.since,
				until: params.until,
				agent: params.agent,
				scope: params.scope,
				gone: params.gone,
			});
			break;
		default:
			throw new LookbackError("bad-argument", `the ${mode} mode is not offered over a team (LOOKBACK_REMOTE): search, read or browse`);
	}
	const { text, truncated } = boundedJson(reply);
	return { text, details: { mode, query: params.query, lines: summaryLines(reply as ToolReply, truncated), truncated } };
}
