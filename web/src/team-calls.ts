/** The worker's calls over an open team (team-index.ts): each run on every shard, or on the machine the page filters by, and merged. */

import type { ActivityDay, BrowseOptions, ProjectCount, ReadOptions, SearchRequest } from "../../src/core/index.js";
import { LookbackError } from "../../src/core/index.js";
import { mergeBrowse, mergeSearch } from "../../src/core/team/merge.js";
import type { IndexInfo } from "./protocol.js";
import { fanOut, type OpenTeam, type TeamShard } from "./team-index.js";

export function teamInfo(team: OpenTeam): IndexInfo {
	const sessions = team.shards.reduce((n, s) => n + s.manifest.sessions, 0);
	return {
		mode: "team",
		sessions,
		messages: 0,
		bytes: team.shards.reduce((n, s) => n + s.manifest.size, 0),
		etag: null,
		team: {
			url: team.url,
			shards: team.shards.map((s) => ({ name: s.name, sessions: s.manifest.sessions, publishedAt: s.manifest.publishedAt })),
			problems: team.problems,
		},
	};
}

export function teamSearch(team: OpenTeam, { shard, ...request }: Omit<SearchRequest, "exclude"> & { shard?: string }) {
	const limit = request.limit ?? 10;
	return mergeSearch(
		request.query,
		fanOut(team, (s) => s.index.search({ ...request, readRange: s.readRange }), shard),
		limit,
	);
}

export function teamBrowse(team: OpenTeam, { shard, ...options }: BrowseOptions & { shard?: string }) {
	return mergeBrowse(
		fanOut(team, (s) => s.index.browse(options), shard),
		options.limit ?? 20,
	).sessions;
}

/** The shard that has a session: the one named, else the first whose index has it. */
function shardOf(team: OpenTeam, ref: string, named?: string): TeamShard {
	for (const s of team.shards) {
		if (named && s.name !== named) continue;
		try {
			s.index.session(ref);
			return s;
		} catch {
			// not on this machine
		}
	}
	throw new LookbackError("session-not-found", `no shard of ${team.url} has session ${ref}`);
}

export function teamRead(team: OpenTeam, { ref, shard, ...options }: { ref: string; shard?: string } & ReadOptions) {
	const s = shardOf(team, ref, shard);
	return { ...s.index.read(ref, options), shard: s.name };
}

/** Sessions per day and per project, summed over the machines shown. */
export function teamLanding(team: OpenTeam, shard?: string): { activity: ActivityDay[]; projects: ProjectCount[] } {
	const days = new Map<string, ActivityDay>();
	const projects = new Map<string, ProjectCount>();
	for (const { value } of fanOut(team, (s) => ({ activity: s.index.activity(), projects: s.index.projects() }), shard).answers) {
		for (const d of value.activity) {
			const kept = days.get(d.day);
			if (kept) [kept.sessions, kept.messages] = [kept.sessions + d.sessions, kept.messages + d.messages];
			else days.set(d.day, { ...d });
		}
		for (const p of value.projects) {
			const kept = projects.get(p.project);
			if (!kept) projects.set(p.project, { ...p });
			else {
				kept.sessions += p.sessions;
				kept.messages += p.messages;
				if ((p.modified ?? "") > (kept.modified ?? "")) kept.modified = p.modified;
			}
		}
	}
	return {
		activity: [...days.values()].sort((a, b) => a.day.localeCompare(b.day)),
		projects: [...projects.values()].sort((a, b) => b.sessions - a.sessions),
	};
}
