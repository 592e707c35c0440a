/**
 * `lookback help COMMAND` and `lookback COMMAND --help`: each command's arguments, options, an example and its
 * exit codes, from one entry per command below (test/cli/help.test.ts holds every command of the parser to an entry,
 * every option it takes to a line, and every example to the parser).
 */

import { AGENT_KINDS } from "../agents/registry.js";
import { DEFAULTS } from "../core/defaults.js";

interface CommandHelp {
	/** Its arguments, as in `lookback search QUERY`. */
	args?: string;
	/** What it does, a line or two. */
	does: string;
	/** The options and flags it takes besides the common ones (their lines are in OPTIONS). */
	options: readonly string[];
	/** One command line that runs it. */
	example: string;
	/** Exit codes beyond the usual three, or other meanings of them. */
	exits?: string;
}

/** Each option's value and what it does, by name: one line, shared by every command that takes it. */
const OPTIONS: Record<string, { value?: string; text: string }> = {
	since: { value: "T", text: "from a date (2026-07-30), an ISO datetime, or an age (30m, 6h, 3d, 2w)" },
	until: { value: "T", text: "up to a date, datetime or age" },
	project: { value: "P", text: "a substring of the session's cwd or name" },
	role: { value: "R", text: "user, assistant, tool, summary, meta (repeatable)" },
	limit: { value: "N", text: `how many to show (search: default ${DEFAULTS.searchLimit})` },
	agent: { value: "A", text: `only one agent's sessions: ${AGENT_KINDS.join(", ")}` },
	session: { value: "ID", text: "every match inside one session, in order" },
	offset: { value: "N", text: "the next page of matches inside a session" },
	variant: { value: "Q", text: "another phrasing or translation searched with QUERY, fused (up to 3)" },
	gone: { value: "only|exclude", text: "only the sessions whose file is gone (kept in the archive), or none of them" },
	around: { value: "ENTRY", text: "the messages around one entry (a search hit's entry id)" },
	window: { value: "N", text: "messages on each side of --around (up to 50)" },
	"branch-tip": { value: "ENTRY", text: "read the branch that ends at this entry, not the active one" },
	full: { text: "long messages whole, from the file or the archive's copy" },
	before: { value: "DATE", text: "the sessions last active before a date" },
	yes: { text: "do it (without it, a dry run that lists what would go)" },
	by: { value: "G", text: "group by day, week, month, project, model, agent, session or block (5-hour billing windows)" },
	utc: { text: "days in UTC, not local time" },
	timezone: { value: "ZONE", text: "days in this IANA time zone (Europe/Berlin); or config.json's timezone" },
	last: { value: "N", text: "only the last N rows (the newest days, weeks, months or blocks)" },
	"token-limit": { value: "N|max", text: "with --by block: a block's token budget (max: the largest block so far)" },
	format: { value: "md|html|json", text: "the export's format (default from --out's extension, else md)" },
	branch: { value: "active|all", text: "the active branch only (default) or every branch" },
	out: { value: "FILE", text: "write to a file, not stdout" },
	"no-redact": { text: "keep secrets as they are (they are redacted by default)" },
	port: { value: "N", text: "the port on 127.0.0.1 (default: a free one)" },
	remote: { value: "URL", text: "every shard of a team (s3://, https://, file://; or LOOKBACK_REMOTE)" },
	shard: { value: "NAME", text: "the team's shard the session is in (with --remote)" },
	as: { value: "NAME", text: "the shard's name for this machine's history" },
	// Common to every command that opens the index:
	index: { value: "FILE", text: "the index file (default: LOOKBACK_INDEX, else index.db in LOOKBACK_HOME or the data folder)" },
	"agent-dir": { value: "DIR", text: "Pi's agent dir (default PI_CODING_AGENT_DIR or ~/.pi/agent)" },
	"omp-agent-dir": { value: "DIR", text: "oh-my-pi's agent dir (default ~/.omp/agent)" },
	"sessions-dir": { value: "DIR", text: "another session folder to index (repeatable)" },
	"only-sessions-dir": { text: "index only the --sessions-dir folders" },
	"no-agent": { value: "A", text: "leave an agent out and forget its sessions (repeatable; or LOOKBACK_SKIP_AGENTS)" },
	engine: { value: "E", text: "auto (default), wasm, or builtin (node:sqlite / bun:sqlite); or LOOKBACK_ENGINE" },
	"no-sync": { text: "answer from the index as it is, without looking for new sessions" },
	"no-archive": { text: "keep no copies of session files (or LOOKBACK_ARCHIVE=off)" },
	json: { text: "machine-readable output" },
	help: { text: "this help" },
};

/** The options every command that opens the index takes. */
export const COMMON_OPTIONS = [
	"index",
	"agent-dir",
	"omp-agent-dir",
	"sessions-dir",
	"only-sessions-dir",
	"no-agent",
	"engine",
	"no-sync",
	"no-archive",
	"json",
	"help",
] as const;

const EXITS = "0 done; 1 failed (the index or a file could not be read or written); 2 a bad argument";

export const COMMAND_HELP: Record<string, CommandHelp> = {
	index: { does: "index new and changed sessions of every agent (a progress bar on a terminal)", options: [], example: "lookback index" },
	search: {
		args: "QUERY",
		does: 'sessions ranked by their best matching message; words are ANDed; OR, NOT or -word, "a phrase", prefix*, (groups)',
		options: ["since", "until", "project", "role", "limit", "agent", "gone", "variant", "session", "offset", "remote"],
		example: 'lookback search "retry policy" --since 2w --agent claude',
		exits: "2 also a query that cannot run",
	},
	read: {
		args: "SESSION",
		does: "a session's active branch as a conversation (SESSION: an id, a unique id prefix, or a session file's path)",
		options: ["around", "window", "branch-tip", "full", "remote", "shard"],
		example: "lookback read 01a1d08f --around 5 --window 3",
	},
	browse: {
		does: "the sessions, newest first",
		options: ["limit", "project", "since", "until", "agent", "gone", "remote"],
		example: "lookback browse --project webshop --limit 20",
	},
	restore: {
		args: "SESSION",
		does: "write a gone session's file back from the archive, where its agent resumes it (never over a file)",
		options: [],
		example: "lookback restore 01a1d08f",
	},
	forget: {
		args: "[SESSION]",
		does: "remove sessions from the index and the archive for good: one, or all of a --project, or all --before a date",
		options: ["project", "before", "gone", "agent", "yes"],
		example: "lookback forget --before 2025-01-01 --yes",
	},
	usage: {
		does: "tokens, cost, sessions, messages and tool calls, by day, week, month, project, model, agent or session",
		options: ["by", "since", "until", "project", "agent", "limit", "utc", "timezone", "last", "token-limit", "remote"],
		example: "lookback usage --by block --last 4 --token-limit max",
	},
	statusline: {
		does: "one line for Claude Code's statusLine hook (its JSON on stdin): the session's, today's and the active block's cost, from the index, cached",
		options: ["timezone"],
		example: "lookback statusline",
	},
	export: {
		args: "SESSION",
		does: "the session as a readable conversation, secrets redacted (a gone one from the archive)",
		options: ["format", "branch", "out", "no-redact"],
		example: "lookback export 01a1d08f --format html --out session.html",
	},
	stats: { does: "what the index and the archive hold and cost, and where they are", options: [], example: "lookback stats --json" },
	serve: {
		does: "the browser viewer on 127.0.0.1 (read-only), until Ctrl+C",
		options: ["port", "remote"],
		example: "lookback serve --port 8765",
	},
	publish: {
		args: "PLACE",
		does: "this machine's history, redacted, as one shard of a team's store (s3://bucket/prefix or file:///dir)",
		options: ["as"],
		example: "lookback publish file:///srv/team --as alice",
	},
	mcp: {
		does: "an MCP server on stdio for Claude Code, Codex, Gemini CLI, OpenCode, Cursor: add `lookback mcp` as a stdio server",
		options: ["remote"],
		example: "lookback mcp",
		exits: "0 when the client goes; 1 the server could not run; 2 a bad argument",
	},
	help: { args: "[COMMAND]", does: "the commands, or one command's help", options: [], example: "lookback help search" },
};

function optionLine(name: string): string {
	const spec = OPTIONS[name];
	const left = `--${name}${spec?.value ? ` ${spec.value}` : ""}`;
	return `  ${left.padEnd(24)}${spec?.text ?? ""}`;
}

/** One command's help, or undefined for a command with none. */
export function commandHelp(name: string): string | undefined {
	const help = Object.hasOwn(COMMAND_HELP, name) ? COMMAND_HELP[name] : undefined;
	if (!help) return undefined;
	const own = help.options.length > 0 ? ["options:", ...help.options.map(optionLine)] : [];
	const common = name === "help" ? [] : [...(own.length > 0 ? [""] : []), "common options:", ...COMMON_OPTIONS.map(optionLine)];
	return [
		`usage: lookback ${name}${help.args ? ` ${help.args}` : ""}${help.options.length > 0 ? " [options]" : ""}`,
		"",
		help.does,
		"",
		...own,
		...common,
		"",
		`example: ${help.example}`,
		`exit:    ${help.exits ? `${EXITS}; ${help.exits}` : EXITS}`,
		"",
	].join("\n");
}

/** Whether an option has its line (for the test that every option a command takes is documented). */
export function documented(name: string): boolean {
	return Object.hasOwn(OPTIONS, name);
}
