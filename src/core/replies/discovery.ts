/** The discovery reply: ranked sessions, the top one (or every one) hydrated with the messages around its hit and the session's bookends. */

import type { LookbackIndex } from "../lookback.js";
import type { Role } from "../parse/entry-text.js";
import type { SearchHit, SearchRequest, SearchResponse } from "../search/search.js";
import type { WhyEmpty } from "../search/why-empty.js";
import { type HitContext, type HostFiles, hitContext } from "./messages.js";

/** A hit as the tool reports it. */
export interface ToolHit {
	sessionId: string;
	name?: string;
	cwd?: string;
	project: string;
	time?: string;
	started?: string;
	snippet: string;
	messageCount: number;
	path: string;
	entryId: string;
	role: Role;
	branchState: SearchHit["branchState"];
	hits: number;
	resumeHint: string;
	agent: SearchHit["agent"];
	kind: SearchHit["kind"];
	spawnedBy?: string;
	spawnedBySessionId?: string;
	spawnedByEntryId?: string;
	forks?: { sessionId: string; path: string }[];
	inMiddle?: SearchHit["inMiddle"];
	/** With query variants: the phrasings that found this session. */
	foundBy?: string[];
	/** "gone": its file was removed; read from lookback's archive, and `resumeHint` restores it first. */
	source?: SearchHit["source"];
	goneAt?: string;
	context?: HitContext;
}

export function toolHit(h: SearchHit): ToolHit {
	return {
		sessionId: h.sessionId,
		name: h.name,
		cwd: h.cwd,
		project: h.project,
		time: h.time,
		started: h.started,
		snippet: h.snippet,
		messageCount: h.messageCount,
		path: h.path,
		entryId: h.entryId,
		role: h.role,
		branchState: h.branchState,
		hits: h.hits,
		resumeHint: h.resumeHint,
		agent: h.agent,
		kind: h.kind,
		...(h.spawnedBy ? { spawnedBy: h.spawnedBy, spawnedBySessionId: h.spawnedBySessionId } : {}),
		...(h.spawnedByEntryId ? { spawnedByEntryId: h.spawnedByEntryId } : {}),
		...(h.forks.length > 0 ? { forks: h.forks } : {}),
		...(h.inMiddle ? { inMiddle: h.inMiddle } : {}),
		...(h.foundBy ? { foundBy: h.foundBy } : {}),
		...(h.source ? { source: h.source, goneAt: h.goneAt } : {}),
	};
}

export interface DiscoveryOptions extends HostFiles {
	/** Hydrate every hit, not only the first. */
	full?: boolean;
}

export interface DiscoveryReply {
	mode: "discovery";
	query: string;
	/** The other phrasings searched with the query. */
	variants?: string[];
	/** The query run instead, when a word of the query matched nothing and was corrected. */
	correctedQuery?: string;
	total: number;
	results: ToolHit[];
	notice?: string;
	/** How the query was read: keywords, a question's words, or its plain words (SearchResponse.reading). */
	reading?: SearchResponse["reading"];
	/** The words around a question that were left out. */
	wordsLeftOut?: string[];
	/** When nothing was found: which filter hid how many matching sessions, which words no session has, what to try. */
	why?: WhyEmpty;
	error?: string;
}

/** Run a search and shape it as the discovery reply. */
export function discover(index: LookbackIndex, request: SearchRequest, options: DiscoveryOptions = {}): DiscoveryReply {
	return discoveryReply(index, index.search({ ...request, readRange: request.readRange ?? options.readRange }), options);
}

/** A search response as the discovery reply: hits as the tool reports them, the first (or every one) hydrated. */
export function discoveryReply(index: LookbackIndex, response: SearchResponse, options: DiscoveryOptions = {}): DiscoveryReply {
	const results = response.results.map(toolHit);
	results.forEach((hit, i) => {
		if (i === 0 || options.full) hit.context = hitContext(index, hit, options);
	});
	const notice = [
		response.notice,
		response.rankedNewest ? `very common query: ranked among its newest ${response.rankedNewest} matches` : undefined,
		response.why ? `nothing found: ${response.why.message}` : undefined,
	]
		.filter(Boolean)
		.join("; ");
	return {
		mode: "discovery",
		query: response.query,
		...(response.variants?.length ? { variants: response.variants } : {}),
		...(response.correctedQuery ? { correctedQuery: response.correctedQuery } : {}),
		total: response.totalSessions,
		results,
		...(notice ? { notice } : {}),
		...(response.reading && response.reading !== "keywords" ? { reading: response.reading } : {}),
		...(response.wordsLeftOut ? { wordsLeftOut: response.wordsLeftOut } : {}),
		...(response.why ? { why: response.why } : {}),
		...(response.error ? { error: response.error } : {}),
	};
}
