/**
 * What the agent's `session_search` tool answers, mode by mode, as plain data: discovery (ranked sessions,
 * the top one hydrated with the messages around its hit and the session's bookends), scroll (a window on a
 * branch), read (a whole branch, bounded), browse (recent sessions), and the omp-session-store actions.
 * The Pi and omp extensions only add the host's context (live context, file sizes, roots).
 */

import { DEFAULTS } from "./defaults.js";
import { LookbackError } from "./errors.js";
import type { LookbackIndex } from "./lookback.js";
import type { Role } from "./entry-text.js";
import type { ReadRange, SearchHit, SearchRequest } from "./search.js";
import type { SessionSummary } from "./session-rows.js";
import { latestSummary, type SessionMessage, type SessionView } from "./sessions.js";

/** Limits of the tool's replies. */
export const REPLY_LIMITS = {
	/** Any reply is cut to this many characters of JSON (and says `contentTruncated: true`). */
	maxChars: 50_000,
	/** Characters of one message inside a discovery or scroll window. */
	windowMessageChars: 1_500,
	/** Messages on each side of the hit in the hydrated top result. */
	hitWindow: 5,
	/** First and last messages of the session shown as bookends. */
	bookends: 3,
	/** A large session read whole shows its first and last messages only. */
	readHead: 20,
	readTail: 10,
} as const;

/** A message as the model sees it. */
export interface ToolMessage {
	entryId: string;
	role: Role;
	time?: string;
	branchState: SessionMessage["branchState"];
	tool?: string;
	text: string;
	textTruncated?: true;
}

/** The host's view of session files: their size now (for the 32 MiB rule), and a part of one (snippets from the unstored middle of long entries). */
export interface HostFiles {
	sizeOf?(path: string): number | undefined;
	readRange?: ReadRange;
}

function toolMessage(m: SessionMessage, maxChars: number): ToolMessage {
	const cut = m.text.length > maxChars;
	return {
		entryId: m.entryId,
		role: m.role,
		time: m.time,
		branchState: m.branchState,
		tool: m.tool,
		text: cut ? `${m.text.slice(0, maxChars)}…` : m.text,
		...(cut ? { textTruncated: true as const } : {}),
	};
}

/** The error for a session file too large to read, or undefined. */
export function oversizeError(path: string, files: HostFiles): string | undefined {
	const size = files.sizeOf?.(path);
	if (size === undefined || size <= DEFAULTS.maxFileBytes) return undefined;
	return `session file is ${(size / 2 ** 20).toFixed(1)} MiB, over the ${DEFAULTS.maxFileBytes / 2 ** 20} MiB limit lookback reads: ${path}`;
}

/** The window around a hit on its branch, and the session's first and last messages. */
export interface HitContext {
	branchTip: string;
	window: ToolMessage[];
	bookends: { first: ToolMessage[]; last: ToolMessage[] };
	/** The branch has this many messages in all. */
	branchMessages: number;
	error?: string;
}

export function hitContext(index: LookbackIndex, hit: { sessionId: string; path: string; entryId: string }, files: HostFiles = {}): HitContext {
	const error = oversizeError(hit.path, files);
	if (error) return { branchTip: "", window: [], bookends: { first: [], last: [] }, branchMessages: 0, error };
	const whole = index.read(hit.path, { around: hit.entryId, window: 10_000 });
	const at = whole.messages.findIndex((m) => m.entryId === hit.entryId);
	const centre = at >= 0 ? at : 0;
	const w = REPLY_LIMITS.hitWindow;
	const all = whole.messages.map((m) => toolMessage(m, REPLY_LIMITS.windowMessageChars));
	const window = all.slice(Math.max(0, centre - w), centre + w + 1);
	const shown = new Set(window.map((m) => m.entryId));
	return {
		branchTip: whole.branchTip,
		window,
		bookends: {
			first: all.slice(0, REPLY_LIMITS.bookends).filter((m) => !shown.has(m.entryId)),
			last: all.slice(-REPLY_LIMITS.bookends).filter((m) => !shown.has(m.entryId)),
		},
		branchMessages: all.length,
	};
}

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
	agent: string;
	kind: string;
	spawnedBy?: string;
	spawnedBySessionId?: string;
	spawnedByEntryId?: string;
	forks?: { sessionId: string; path: string }[];
	inMiddle?: SearchHit["inMiddle"];
	context?: HitContext;
}

function toolHit(h: SearchHit): ToolHit {
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
		...(h.spawnedBy ? { spawnedBy: h.spawnedBy, spawnedBySessionId: h.spawnedBySessionId, spawnedByEntryId: h.spawnedByEntryId } : {}),
		...(h.forks.length > 0 ? { forks: h.forks } : {}),
		...(h.inMiddle ? { inMiddle: h.inMiddle } : {}),
	};
}

export interface DiscoveryOptions extends HostFiles {
	/** Hydrate every hit, not only the first. */
	full?: boolean;
	/** Titles and summaries kept outside the transcripts (omp's history.db and agent.db), by session id. */
	extras?: (sessionId: string) => { title?: string; summary?: string } | undefined;
}

export interface DiscoveryReply {
	mode: "discovery";
	query: string;
	/** The query run instead, when a word of the query matched nothing and was corrected. */
	correctedQuery?: string;
	total: number;
	results: ToolHit[];
	notice?: string;
	error?: string;
}

export function discover(index: LookbackIndex, request: SearchRequest, options: DiscoveryOptions = {}): DiscoveryReply {
	const response = index.search({ ...request, readRange: request.readRange ?? options.readRange });
	const results = response.results.map(toolHit);
	results.forEach((hit, i) => {
		if (i === 0 || options.full) hit.context = hitContext(index, hit, options);
	});
	const notice = [response.notice, response.rankedNewest ? `very common query: ranked among its newest ${response.rankedNewest} matches` : undefined]
		.filter(Boolean)
		.join("; ");
	return { mode: "discovery", query: request.query, ...(response.correctedQuery ? { correctedQuery: response.correctedQuery } : {}), total: response.totalSessions, results, ...(notice ? { notice } : {}), ...(response.error ? { error: response.error } : {}) };
}

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

export function scroll(
	index: LookbackIndex,
	ref: string,
	options: { aroundMessageId: string; window?: number; branchTip?: string } & HostFiles,
): ScrollReply {
	const row = index.session(ref);
	const error = oversizeError(row.path, options);
	if (error) throw new LookbackError("file-too-large", error);
	const window = Math.max(1, Math.min(options.window ?? DEFAULTS.readWindow, 20));
	const view = index.read(row.path, { around: options.aroundMessageId, window, branchTip: options.branchTip });
	return {
		mode: "scroll",
		session: view.session,
		branchTip: view.branchTip,
		aroundMessageId: options.aroundMessageId,
		offset: view.offset,
		total: view.total,
		messages: view.messages.map((m) => toolMessage(m, REPLY_LIMITS.windowMessageChars)),
	};
}

export interface ReadReply {
	mode: "read";
	session: SessionSummary;
	branchTip: string;
	total: number;
	messages: ToolMessage[];
	/** Messages left out between the head and the tail of a large session. */
	omitted?: { count: number; fromEntryId: string; toEntryId: string };
}

export function readWhole(index: LookbackIndex, ref: string, options: HostFiles & { branchTip?: string } = {}): ReadReply {
	const row = index.session(ref);
	const error = oversizeError(row.path, options);
	if (error) throw new LookbackError("file-too-large", error);
	const view: SessionView = index.read(row.path, { branchTip: options.branchTip });
	const all = view.messages.map((m) => toolMessage(m, Number.MAX_SAFE_INTEGER));
	const { readHead, readTail } = REPLY_LIMITS;
	if (all.length <= readHead + readTail) return { mode: "read", session: view.session, branchTip: view.branchTip, total: view.total, messages: all };
	const gap = all.slice(readHead, all.length - readTail);
	return {
		mode: "read",
		session: view.session,
		branchTip: view.branchTip,
		total: view.total,
		messages: [...all.slice(0, readHead), ...all.slice(-readTail)],
		omitted: { count: gap.length, fromEntryId: gap[0].entryId, toEntryId: gap[gap.length - 1].entryId },
	};
}

export interface BrowseReply {
	mode: "browse";
	total: number;
	sessions: (Omit<SessionSummary, "firstPrompt"> & { preview?: string })[];
}

export function browseReply(
	index: LookbackIndex,
	options: { limit?: number; project?: string; since?: string; until?: string; now?: number; scope?: "top" | "all" },
): BrowseReply {
	const sessions = index.browse({ ...options, limit: options.limit ?? DEFAULTS.searchLimit }).map(({ firstPrompt, ...s }) => ({ ...s, preview: firstPrompt }));
	return { mode: "browse", total: sessions.length, sessions };
}

/**
 * JSON text of a reply within `maxChars`: the longest message texts are cut first, then whole messages and
 * results are dropped from the end, and `contentTruncated: true` says so.
 */
export function boundedJson(reply: object, maxChars: number = REPLY_LIMITS.maxChars): { text: string; truncated: boolean } {
	let text = JSON.stringify(reply, null, 1);
	if (text.length <= maxChars) return { text, truncated: false };
	const copy = JSON.parse(text) as Record<string, unknown>;
	copy.contentTruncated = true;
	const texts: { holder: { text: string; textTruncated?: boolean } }[] = [];
	const visit = (v: unknown): void => {
		if (Array.isArray(v)) v.forEach(visit);
		else if (v && typeof v === "object") {
			const o = v as Record<string, unknown>;
			if (typeof o.text === "string" && typeof o.entryId === "string") texts.push({ holder: o as { text: string } });
			Object.values(o).forEach(visit);
		}
	};
	visit(copy);
	texts.sort((a, b) => b.holder.text.length - a.holder.text.length);
	for (let limit = 4000; limit >= 200 && text.length > maxChars; limit = Math.floor(limit / 2)) {
		for (const { holder } of texts) {
			if (holder.text.length > limit) {
				holder.text = `${holder.text.slice(0, limit)}…`;
				holder.textTruncated = true;
			}
		}
		text = JSON.stringify(copy, null, 1);
	}
	for (const key of ["messages", "results", "sessions"]) {
		const list = copy[key];
		while (Array.isArray(list) && list.length > 1 && text.length > maxChars) {
			list.pop();
			text = JSON.stringify(copy, null, 1);
		}
	}
	if (text.length > maxChars) text = JSON.stringify(copy).slice(0, maxChars);
	return { text, truncated: true };
}

/** One result in the shape of omp's session store, beside ours. */
export interface StoreFields {
	session_id: string;
	project: string;
	cwd?: string;
	time?: string;
	title: string;
	summary?: string;
	snippet: string;
	path: string;
	message_count: number;
	resume_hint: string;
}

export interface StoreReply {
	action: "keyword" | "content" | "list";
	total: number;
	results: (StoreFields & Partial<ToolHit>)[];
	notice?: string;
	error?: string;
}

function storeFields(
	index: LookbackIndex,
	s: Omit<SessionSummary, "firstPrompt"> & { snippet?: string; time?: string },
	extras: DiscoveryOptions["extras"],
): StoreFields {
	const row = index.session(s.path);
	const extra = extras?.(s.sessionId);
	return {
		session_id: s.sessionId,
		project: s.project,
		cwd: s.cwd,
		time: s.time ?? s.modified,
		title: s.name ?? extra?.title ?? (row.first_prompt ?? "").replace(/\s+/g, " ").slice(0, 80),
		summary: extra?.summary ?? latestSummary(index.db, row.id),
		snippet: s.snippet ?? row.first_prompt ?? "",
		path: s.path,
		message_count: s.messageCount,
		resume_hint: s.resumeHint,
	};
}

/**
 * The omp-session-store actions: `keyword` ranks what the user asked plus session names and summaries,
 * `content` searches every indexed message, `list` browses by project and time.
 */
export function storeAction(
	index: LookbackIndex,
	action: StoreReply["action"],
	request: Omit<SearchRequest, "query"> & { query?: string },
	options: DiscoveryOptions = {},
): StoreReply {
	if (action === "list") {
		const sessions = index.browse({ limit: request.limit, project: request.project, since: request.since as string | undefined, until: request.until as string | undefined, now: request.now, scope: request.scope });
		return { action, total: sessions.length, results: sessions.map((s) => ({ ...storeFields(index, s, options.extras), sessionId: s.sessionId, name: s.name, agent: s.agent, kind: s.kind })) };
	}
	if (!request.query) throw new LookbackError("bad-argument", `action "${action}" needs a query`);
	const roles: Role[] | undefined = action === "keyword" ? ["user", "meta", "summary"] : undefined;
	const reply = discover(index, { ...request, query: request.query, role: request.role ?? roles }, options);
	return {
		action,
		total: reply.total,
		results: reply.results.map((hit) => ({ ...storeFields(index, { ...hit, modified: hit.time }, options.extras), ...hit })),
		...(reply.notice ? { notice: reply.notice } : {}),
		...(reply.error ? { error: reply.error } : {}),
	};
}
