/**
 * What each MCP tool does: checked arguments in, the core's reply out (the same reply functions, budget and
 * truncation markers as the Pi tool's), with where the index's sync stands and which calling sessions were
 * left out. A problem is thrown as a `LookbackError`; the server turns it into a tool error.
 */

import {
	type AgentKind,
	type BranchState,
	browseReply,
	DEFAULTS,
	discover,
	type GoneFilter,
	inSessionReply,
	isSessionPath,
	LookbackError,
	mebibytes,
	oversizeError,
	type Role,
	readPage,
	readWhole,
	type Scope,
	scroll,
} from "../core/index.js";
import type { HostIndex } from "../node/host-index.js";
import type { NodeIndex } from "../node/open.js";
import { sessionPathInRoots } from "../node/paths.js";
import { type CallingSessions, CallingSessionsCache, leftOutNote } from "./calling-session.js";
import type { Arguments } from "./schema.js";
import type { ToolName } from "./tool-specs.js";

export interface ToolContext {
	index: HostIndex;
	/** The server's working directory: its recently changed sessions are taken to be the caller's. */
	cwd: string;
	/** A team's bucket the tools answer from instead of this machine's index (remote-runs.ts). */
	remote?: string;
}

/** Arguments as the schema checked them: optional strings, numbers and booleans by name. */
function str(args: Arguments, name: string): string | undefined {
	const v = args[name];
	return typeof v === "string" ? v : undefined;
}
function int(args: Arguments, name: string): number | undefined {
	const v = args[name];
	return typeof v === "number" ? v : undefined;
}
function strings(args: Arguments, name: string): string[] | undefined {
	const v = args[name];
	return Array.isArray(v) ? v : undefined;
}

/** Arguments of a search over sessions that a search inside one session has no use for. */
const ACROSS_SESSIONS = ["queryVariants", "project", "agent", "since", "until", "scope", "branch", "detail", "includeCallingSession"];

function filters(args: Arguments) {
	return {
		project: str(args, "project"),
		// The schema's enums admit only these values.
		agent: str(args, "agent") as AgentKind | undefined,
		since: str(args, "since"),
		until: str(args, "until"),
		scope: str(args, "scope") as Scope | undefined,
		gone: str(args, "gone") as GoneFilter | undefined,
	};
}

/** Each server's calling sessions, read again only when the index or the files may have changed. */
const callingCaches = new WeakMap<ToolContext, CallingSessionsCache>();

function callingOf(ctx: ToolContext, opened: NodeIndex, version: number): CallingSessions {
	let cache = callingCaches.get(ctx);
	if (!cache) callingCaches.set(ctx, (cache = new CallingSessionsCache()));
	return cache.get(opened.index, ctx.cwd, version);
}

async function searchSessions(ctx: ToolContext, args: Arguments): Promise<object> {
	const sessionId = str(args, "sessionId");
	if (sessionId !== undefined) return searchInSession(ctx, sessionId, args);
	if (args.offset !== undefined)
		throw new LookbackError("bad-argument", "offset goes with sessionId (paging the matches inside one session)");
	const { opened, state, version } = await ctx.index.fresh();
	const calling = args.includeCallingSession === true ? undefined : callingOf(ctx, opened, version);
	const reply = discover(
		opened.index,
		{
			query: str(args, "query") ?? "",
			variants: strings(args, "queryVariants"),
			...filters(args),
			role: str(args, "role") as Role | undefined,
			branch: str(args, "branch") as BranchState | undefined,
			limit: int(args, "limit"),
			exclude: calling?.paths.size ? (hit) => calling.paths.has(hit.sessionPath) : undefined,
		},
		{ ...opened.files, full: args.detail === "full" },
	);
	// A query that could not be run at all (only operators, say) is the caller's to fix, not an empty answer.
	if (reply.error) throw new LookbackError("bad-query", reply.error.replace(/^lookback: /, ""));
	return { ...reply, ...state, ...(calling ? leftOutNote(calling, ctx.cwd) : {}) };
}

/** A session reference checked against the session folders; a session not indexed yet is looked for again after a sync. */
async function sessionRef(ctx: ToolContext, ref: string): Promise<{ opened: NodeIndex; ref: string }> {
	let opened = await ctx.index.open();
	const path = isSessionPath(ref) ? sessionPathInRoots(ref, opened.source.roots()) : undefined;
	const tooLarge = path ? oversizeError(path, opened.files) : undefined;
	if (tooLarge) throw new LookbackError("file-too-large", tooLarge);
	const target = path ?? ref;
	try {
		opened.index.session(target);
		return { opened, ref: target };
	} catch {
		opened = (await ctx.index.fresh()).opened;
	}
	try {
		opened.index.session(target);
	} catch (error) {
		const big = ctx.index.oversizedFiles().find((p) => p.includes(ref));
		if (big)
			throw new LookbackError(
				"file-too-large",
				`session ${ref} is in ${big}, which is over the ${mebibytes(DEFAULTS.maxFileBytes)} limit lookback reads`,
			);
		if (ctx.index.indexing && error instanceof LookbackError && error.code === "session-not-found")
			throw new LookbackError(
				"session-not-found",
				`${error.message.replace(/^lookback: /, "")} (a first index is still running: see index_status)`,
			);
		throw error;
	}
	return { opened, ref: target };
}

/** Every match of the query inside one session, in its order, a page at a time. */
async function searchInSession(ctx: ToolContext, sessionId: string, args: Arguments): Promise<object> {
	const across = ACROSS_SESSIONS.filter((name) => args[name] !== undefined);
	if (across.length > 0)
		throw new LookbackError(
			"bad-argument",
			`${across.join(", ")} ${across.length > 1 ? "go" : "goes"} with a search over sessions, not with sessionId`,
		);
	const { opened, ref } = await sessionRef(ctx, sessionId);
	const reply = inSessionReply(
		opened.index,
		ref,
		{
			query: str(args, "query") ?? "",
			offset: int(args, "offset"),
			limit: int(args, "limit"),
			role: str(args, "role") as Role | undefined,
		},
		opened.files,
	);
	if (reply.error) throw new LookbackError("bad-query", reply.error.replace(/^lookback: /, ""));
	return reply;
}

async function readSession(ctx: ToolContext, args: Arguments): Promise<object> {
	const around = str(args, "aroundMessageId");
	const offset = int(args, "offset");
	const pageLimit = int(args, "limit");
	if (around !== undefined && (offset !== undefined || pageLimit !== undefined))
		throw new LookbackError("bad-argument", "give aroundMessageId (a window around an entry) or offset and limit (a page), not both");
	if (around === undefined && args.window !== undefined) throw new LookbackError("bad-argument", "window goes with aroundMessageId");
	const { opened, ref } = await sessionRef(ctx, str(args, "sessionId") ?? "");
	const branchTip = str(args, "branchTip");
	if (around !== undefined)
		return scroll(opened.index, ref, { aroundMessageId: around, window: int(args, "window"), branchTip, ...opened.files });
	if (offset !== undefined || pageLimit !== undefined)
		return readPage(opened.index, ref, { offset, limit: pageLimit, branchTip, ...opened.files });
	return readWhole(opened.index, ref, { branchTip, ...opened.files });
}

async function listSessions(ctx: ToolContext, args: Arguments): Promise<object> {
	const { opened, state, version } = await ctx.index.fresh();
	const calling = args.includeCallingSession === true ? undefined : callingOf(ctx, opened, version);
	const limit = int(args, "limit") ?? DEFAULTS.searchLimit;
	// Ask for as many more as are left out, so that leaving them out does not shorten the list.
	const reply = browseReply(opened.index, { ...filters(args), limit: limit + (calling?.leftOut.length ?? 0) });
	const sessions = reply.sessions.filter((s) => !calling?.paths.has(s.path)).slice(0, limit);
	return { ...reply, total: sessions.length, sessions, ...state, ...(calling ? leftOutNote(calling, ctx.cwd) : {}) };
}

async function indexStatus(ctx: ToolContext): Promise<object> {
	const status = ctx.index.status();
	// A client that asks for the status first finds the first index started rather than waiting for a search.
	if (status.state === "not-opened") ctx.index.warmUp();
	return { ...status, cwd: ctx.cwd, callingSessionMinutes: Math.round(DEFAULTS.callingSessionMs / 60_000) };
}

const LOCAL_RUNS: Record<ToolName, (ctx: ToolContext, args: Arguments) => Promise<object>> = {
	search_sessions: searchSessions,
	read_session: readSession,
	list_sessions: listSessions,
	index_status: indexStatus,
};

/** Each tool: over this machine's index, or over a team's shards when the server was given one. */
export const TOOL_RUNS = Object.fromEntries(
	Object.entries(LOCAL_RUNS).map(([name, run]) => [
		name,
		async (ctx: ToolContext, args: Arguments) =>
			ctx.remote ? (await import("./remote-runs.js")).REMOTE_RUNS[name as ToolName](ctx.remote, args) : run(ctx, args),
	]),
) as typeof LOCAL_RUNS;
