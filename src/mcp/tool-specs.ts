/** What `tools/list` says: each tool's name, description and input schema, written for the model that calls it. */

import { AGENT_KINDS, agentLabels } from "../agents/registry.js";
// The core's small modules, not its barrel: the schemas load before the handshake (server.ts).
import { DEFAULTS, thousands } from "../core/defaults.js";
import { BRANCH_STATES } from "../core/parse/branch.js";
import { ROLES } from "../core/parse/roles.js";
import { GONE_FILTERS, SCOPES } from "../core/query/session-filter.js";
import type { ObjectSchema, PropertySchema } from "./schema.js";

export type ToolName = "search_sessions" | "read_session" | "list_sessions" | "index_status";

export interface ToolSpec {
	name: ToolName;
	title: string;
	description: string;
	inputSchema: ObjectSchema;
}

const minutes = Math.round(DEFAULTS.callingSessionMs / 60_000);
const BUDGET = `Replies are JSON of at most ${thousands(DEFAULTS.replyMaxChars)} characters: contentTruncated: true when the reply was cut, textTruncated: true on a message whose text was cut.`;
const AGENTS = agentLabels();

/** The filters search_sessions and list_sessions share, as in the lookback CLI and the Pi tool. */
const FILTERS: Record<string, PropertySchema> = {
	project: { type: "string", description: "Only sessions whose working directory or name contains this text (e.g. a repository name)." },
	agent: { type: "string", enum: AGENT_KINDS, description: "Only sessions written by this agent." },
	since: { type: "string", description: "Only messages at or after: a date 2026-07-30, an ISO datetime, or an age like 30m, 6h, 3d, 2w." },
	until: { type: "string", description: "Only messages before: a date (that whole day included), an ISO datetime, or an age." },
	scope: {
		type: "string",
		enum: SCOPES,
		description: `Sub-agent transcripts: "all" includes them, "top" leaves them out (default "${DEFAULTS.searchScope}" for a search, "${DEFAULTS.browseScope}" for a list).`,
	},
	gone: {
		type: "string",
		enum: GONE_FILTERS,
		description:
			'Sessions whose file the agent deleted, kept by lookback (source: "gone"; their resumeHint restores the file first): "only" those, "exclude" them (default: both).',
	},
	includeCallingSession: {
		type: "boolean",
		description: `Include sessions of this server's working directory whose file changed in the last ${minutes} minutes (left out by default: one of them is the session calling this tool).`,
	},
};

/** Every tool that answers with session text takes it; applied by server.ts to the whole reply. */
const REDACT: PropertySchema = {
	type: "boolean",
	description:
		"Replace API keys, tokens, private keys and passwords in the reply by [REDACTED:kind] markers, counted in redactions (default true; false only when the person asked to see a secret as it is; LOOKBACK_REDACT=0 in the environment makes false the default).",
};

const limit = (what: string, byDefault: number, max: number): PropertySchema => ({
	type: "integer",
	minimum: 1,
	maximum: max,
	description: `${what} to return (default ${byDefault}).`,
});

export const TOOL_SPECS: readonly ToolSpec[] = [
	{
		name: "search_sessions",
		title: "Search past coding-agent sessions",
		description: `Search every past coding-agent session on this machine (${AGENTS}; all projects) for what was said or done in it: decisions, commands, errors, file names, code.
Returns sessions ranked by their best matching message, each with a snippet, its sessionId, the matching entryId and a resumeHint (the command that resumes it). The top result (every result with detail: "full") also has context: the messages around the hit and the session's first and last messages. To read more, call read_session with the result's sessionId (and its entryId as aroundMessageId).
Query language: words are ANDed; OR, AND, NOT in capitals, "exact phrase", prefix*, (groups around an operator), -word in a short keyword query. A question in your own words works too: the words around it (can you find, the session where, not sure when) are left out, and brackets, flags (tail -F), paths and code are words; reading says how the query was read. Identifiers and long words also match words containing them, a short word those it begins; word forms and typos are tried when the words as typed find nothing (notice says so). Chinese and Japanese work at any length. An empty reply's why names the filter that hid how many matching sessions and the words no session has.
queryVariants: up to ${DEFAULTS.maxQueryVariants} other phrasings searched with the query and fused into one ranking (each result's foundBy names the phrasings that found it). Pass them when the query is a question, when the sessions may be in another language than the user's words (give the translation), or when the memory is vague (synonyms, the likely identifier).
With sessionId: every message of that one session that matches the query, in the session's order and on every branch (each with its branchState), with snippets and entryIds to read around with read_session; page with offset (the reply's next).
Sessions of this server's working directory changed in the last ${minutes} minutes are left out as the calling session (leftOut lists them; includeCallingSession: true keeps them). While a first index is being built, results come from what is indexed so far and indexing: {done, total} says how far it has got.
${BUDGET}`,
		inputSchema: {
			type: "object",
			properties: {
				query: {
					type: "string",
					minLength: 1,
					description: 'What to find (query language above), e.g. `sqlite lock busy` or `"connection refused" -docker`.',
				},
				queryVariants: {
					type: "array",
					items: { type: "string" },
					maxItems: DEFAULTS.maxQueryVariants,
					description: `Up to ${DEFAULTS.maxQueryVariants} other phrasings or translations of query, searched with it and fused into one ranking.`,
				},
				...FILTERS,
				sessionId: {
					type: "string",
					minLength: 1,
					description:
						"Search inside this one session (full id, unique id prefix, or the session file's path): every matching message in order, not a ranking of sessions.",
				},
				offset: {
					type: "integer",
					minimum: 0,
					maximum: Number.MAX_SAFE_INTEGER,
					description: "With sessionId: matches to skip (the next of a previous reply).",
				},
				role: {
					type: "string",
					enum: ROLES,
					description:
						"Only text of this role (tool = tool calls and their output; summary = compaction and branch summaries; meta = session names and models).",
				},
				branch: {
					type: "string",
					enum: BRANCH_STATES,
					description:
						"Only messages in this branch state: active (on the session's current branch), compacted (on it, before a compaction), abandoned (on a branch left by going back).",
				},
				limit: {
					type: "integer",
					minimum: 1,
					maximum: DEFAULTS.replyMaxSessions,
					description: `Sessions to return (default ${DEFAULTS.searchLimit}); with sessionId, matches per page (default ${DEFAULTS.inSessionLimit}).`,
				},
				detail: {
					type: "string",
					enum: ["full"],
					description: '"full": the messages around the hit for every result, not only the first.',
				},
				redact: REDACT,
			},
			required: ["query"],
			additionalProperties: false,
		},
	},
	{
		name: "read_session",
		title: "Read a past session",
		description: `Read one past session (a sessionId from search_sessions or list_sessions: full id, unique id prefix, or the session file's path).
- sessionId alone: its current branch; a long one shows the first ${DEFAULTS.readHead} and last ${DEFAULTS.readTail} messages, and omitted says how many lie between (read them with offset).
- with aroundMessageId (an entryId from a result or a message): the messages around that entry, window on each side; offset and total say where they are on the branch.
- with offset (and limit): messages [offset, offset + limit) of the branch, in order; nextOffset is the offset of the next page while there is one. Start at 0 to read a session from its beginning.
branchTip (from a previous reply) keeps every call on the same branch of a session that has several. Messages in a window or a page are cut to ${thousands(DEFAULTS.replyMessageChars)} characters each (textTruncated: true).
${BUDGET}`,
		inputSchema: {
			type: "object",
			properties: {
				sessionId: { type: "string", minLength: 1, description: "The session: full id, unique id prefix, or the path of its file." },
				aroundMessageId: { type: "string", minLength: 1, description: "Show the messages around this entry id (not with offset)." },
				window: {
					type: "integer",
					minimum: 1,
					maximum: DEFAULTS.readMaxWindow,
					description: `With aroundMessageId: messages on each side (default ${DEFAULTS.readWindow}).`,
				},
				offset: {
					type: "integer",
					minimum: 0,
					maximum: Number.MAX_SAFE_INTEGER,
					description: "Read a page from this position of the branch (0 = its first message).",
				},
				limit: limit("With offset: messages", DEFAULTS.readPage, DEFAULTS.readPageMax),
				branchTip: {
					type: "string",
					minLength: 1,
					description: "Stay on the branch ending at this entry (the branchTip of a previous reply).",
				},
				redact: REDACT,
			},
			required: ["sessionId"],
			additionalProperties: false,
		},
	},
	{
		name: "list_sessions",
		title: "List recent sessions",
		description: `List past coding-agent sessions (${AGENTS}), most recently active first, each with its sessionId, project, working directory, start and last-activity times, message count, a preview of its first prompt, a resumeHint, and what it used where its files say (usage: tokens, costUsd in USD, estimated: true when priced from list prices). Filter by project, agent and time; time bounds select sessions active in that span.
Sessions of this server's working directory changed in the last ${minutes} minutes are left out as the calling session (leftOut lists them; includeCallingSession: true keeps them).
${BUDGET}`,
		inputSchema: {
			type: "object",
			properties: { ...FILTERS, limit: limit("Sessions", DEFAULTS.searchLimit, DEFAULTS.replyMaxSessions), redact: REDACT },
			additionalProperties: false,
		},
	},
	{
		name: "index_status",
		title: "Index status",
		description: `Where lookback's search index stands: state (opening, indexing, ready, failed), indexing progress {done, total} files while a first index is being built, how many sessions and messages it holds, the last sync, the index file and the engine. Takes no arguments and never waits for indexing.`,
		inputSchema: { type: "object", properties: {}, additionalProperties: false },
	},
];
