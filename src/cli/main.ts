/** The `lookback` command line, as a function of argv and streams, so tests run it in-process. */

import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
	AGENT_KINDS,
	type AgentKind,
	DEFAULTS,
	inSessionReply,
	isAgentKind,
	isSessionPath,
	LookbackError,
	ROLES,
	type Role,
	redactsByDefault,
	type SyncReport,
	USAGE_GROUPS,
	type UsageGroup,
} from "../core/index.js";
import { engineChoice } from "../node/engine-choice.js";
import { readFileRange } from "../node/file-range.js";
import { type NodeIndex, type NodeIndexOptions, openNodeIndex } from "../node/open.js";
import { sessionPathInRoots } from "../node/paths.js";
import { serveViewer } from "../node/serve.js";
import { intOption, option, type ParsedArgs, parseArgs } from "./args.js";
import { runExport } from "./export.js";
import {
	formatBrowse,
	formatInSession,
	formatMB,
	formatRead,
	formatSearch,
	formatStats,
	formatSyncSummary,
	formatWarnings,
	makeStyle,
	type Style,
} from "./format.js";
import { formatUsage } from "./usage-format.js";

export interface CliIO {
	stdout: (text: string) => void;
	stderr: (text: string) => void;
	env: Record<string, string | undefined>;
	/** Whether stdout/stderr are terminals (progress bar, colour). */
	isTTY: boolean;
	/** The terminal's width, when stdout is one. */
	columns?: number;
}

const VERSION = "0.1.0";

/** Messages on each side `lookback read --around` may show: a person scrolls a terminal further than a model reads. */
const CLI_MAX_WINDOW = 50;

/** The built viewer: beside the bundled CLI (dist/web), or dist/web of the repo when run from the sources. */
function webDir(): string {
	const beside = fileURLToPath(new URL("./web/", import.meta.url));
	return existsSync(join(beside, "app.js")) ? beside : fileURLToPath(new URL("../../dist/web/", import.meta.url));
}

const HELP = `lookback — search every past session of Pi, omp, Claude Code, Codex, Gemini CLI and OpenCode

usage:
  lookback index                       index new and changed sessions (progress on a terminal)
  lookback search QUERY [filters]      sessions ranked by their best matching message
  lookback search QUERY --session ID   every match inside one session, in order (--offset N for the next page)
  lookback read SESSION [--around ENTRY] [--window N] [--branch-tip ENTRY]
  lookback browse [--limit N] [--project P] [--since T] [--until T]
  lookback usage [--by G] [filters]    tokens, cost, sessions, messages and tool calls, by day, week, month,
                                       project, model, agent or session (--utc: UTC days)
  lookback export SESSION [--format md|html|json] [--branch active|all] [--out FILE] [--no-redact]
                                       the session as a readable conversation, secrets redacted
  lookback stats                       what the index holds and costs
  lookback serve [--port N]            the browser viewer on 127.0.0.1 (read-only)
  lookback mcp                         an MCP server on stdio for Claude Code, Codex, Gemini CLI, OpenCode, Cursor

query:   words are ANDed; OR, NOT or -word, "a phrase", prefix*, (groups).
         A word of 3+ letters also finds words containing it (tateSto finds stateStore);
         Chinese/Japanese of any length works; "quoted" words match exactly.
filters: --since T --until T   a date (2026-07-30), ISO datetime, or age (30m, 6h, 3d, 2w)
         --project P           substring of the session's cwd or name
         --role R              user, assistant, tool, summary, meta (repeatable)
         --limit N             sessions to show (default ${DEFAULTS.searchLimit})
         --variant Q           another phrasing or translation searched with QUERY, fused (up to 3)
         --agent A             only sessions of one agent: ${AGENT_KINDS.join(", ")}
SESSION: a session id, a unique id prefix, or a session file path inside the session folders.

options: --index FILE          index file (default <agentDir>/lookback/index.db)
         --agent-dir DIR       Pi's agent dir (default $PI_CODING_AGENT_DIR or ~/.pi/agent)
         --omp-agent-dir DIR   oh-my-pi's agent dir (default ~/.omp/agent): its sessions, sub-agents, archives
         --sessions-dir DIR    another session folder to index (repeatable)
         --only-sessions-dir   index only the --sessions-dir folders
         --no-agent A          leave an agent out and forget its sessions (repeatable; or LOOKBACK_SKIP_AGENTS=a,b)
         --no-sync             search the index as it is, without looking for new sessions
         --engine E            auto (default), wasm, or builtin (node:sqlite / bun:sqlite); or LOOKBACK_ENGINE
         --json                machine-readable output (shapes in README)
`;

const COMMANDS: Record<string, { positionals: "none" | "one" | "many"; options: string[] }> = {
	index: { positionals: "none", options: [] },
	search: { positionals: "many", options: ["since", "until", "project", "role", "limit", "agent", "session", "offset", "variant"] },
	read: { positionals: "one", options: ["around", "window", "branch-tip"] },
	browse: { positionals: "none", options: ["since", "until", "project", "limit", "agent"] },
	export: { positionals: "one", options: ["format", "branch", "out"] },
	stats: { positionals: "none", options: [] },
	usage: { positionals: "none", options: ["since", "until", "project", "agent", "by", "limit", "utc"] },
	serve: { positionals: "none", options: ["port"] },
	mcp: { positionals: "none", options: [] },
};
const COMMON = new Set(["index", "agent-dir", "omp-agent-dir", "sessions-dir", "no-agent", "engine"]);

function checkCommand(args: ParsedArgs): void {
	const spec = COMMANDS[args.command];
	if (!spec) throw new LookbackError("bad-argument", `unknown command "${args.command}" (commands: ${Object.keys(COMMANDS).join(", ")})`);
	for (const name of [...args.options.keys(), ...[...args.flags].filter((f) => f === "utc")]) {
		if (!COMMON.has(name) && !spec.options.includes(name))
			throw new LookbackError("bad-argument", `${args.command} does not take --${name}`);
	}
	const n = args.positionals.length;
	if (spec.positionals === "none" && n > 0)
		throw new LookbackError("bad-argument", `${args.command} takes no arguments, got "${args.positionals[0]}"`);
	if (spec.positionals === "one" && n !== 1) throw new LookbackError("bad-argument", `${args.command} needs exactly one SESSION`);
	if (spec.positionals === "many" && n === 0) throw new LookbackError("bad-argument", `${args.command} needs a QUERY`);
}

function agentOption(args: ParsedArgs): AgentKind | undefined {
	const agent = option(args, "agent");
	if (agent === undefined || isAgentKind(agent)) return agent;
	throw new LookbackError("bad-argument", `--agent must be one of ${AGENT_KINDS.join(", ")}, not "${agent}"`);
}

function groupOption(args: ParsedArgs): UsageGroup | undefined {
	const by = option(args, "by");
	if (by === undefined || (USAGE_GROUPS as readonly string[]).includes(by)) return by as UsageGroup | undefined;
	throw new LookbackError("bad-argument", `--by must be one of ${USAGE_GROUPS.join(", ")}, not "${by}"`);
}

function leftOutOption(args: ParsedArgs): AgentKind[] | undefined {
	const names = args.options.get("no-agent")?.flatMap((n) => n.split(",").map((s) => s.trim()));
	if (!names) return undefined;
	for (const n of names)
		if (!isAgentKind(n)) throw new LookbackError("bad-argument", `--no-agent must name one of ${AGENT_KINDS.join(", ")}, not "${n}"`);
	return names as AgentKind[];
}

function roles(args: ParsedArgs): Role[] | undefined {
	const list = args.options.get("role");
	if (!list) return undefined;
	const out = list.flatMap((r) => r.split(",")).map((r) => r.trim());
	for (const r of out)
		if (!ROLES.includes(r as Role)) throw new LookbackError("bad-argument", `--role must be one of ${ROLES.join(", ")}, not "${r}"`);
	return out as Role[];
}

/** A progress bar on stderr, redrawn at most every 100 ms. */
function progressBar(io: CliIO): ((p: { done: number; total: number; bytesRead: number }) => void) | undefined {
	if (!io.isTTY) return undefined;
	let last = 0;
	return ({ done, total, bytesRead }) => {
		const now = Date.now();
		if (now - last < 100 && done < total) return;
		last = now;
		const width = 30;
		const filled = total > 0 ? Math.round((done / total) * width) : width;
		io.stderr(
			`\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total} files, ${formatMB(bytesRead)}${done === total ? "\n" : ""}`,
		);
	};
}

interface Context {
	args: ParsedArgs;
	io: CliIO;
	style: Style;
	json: boolean;
	opened: NodeIndex;
}

/** Sync before a command (unless --no-sync; `index` always syncs); the index commits as it syncs. */
async function syncFirst(ctx: Context, options: { progress?: boolean; always?: boolean } = {}): Promise<SyncReport | undefined> {
	if (!options.always && ctx.args.flags.has("no-sync")) return undefined;
	const progress = options.progress ?? false;
	const report = await ctx.opened.index.sync(ctx.opened.source, { onProgress: progress ? progressBar(ctx.io) : undefined });
	if (!ctx.json) ctx.io.stderr(formatWarnings(report, ctx.style));
	return report;
}

function emit(ctx: Context, command: string, payload: object, human: string, sync?: SyncReport): void {
	if (ctx.json) ctx.io.stdout(`${JSON.stringify({ command, ...(sync ? { sync } : {}), ...payload }, null, 2)}\n`);
	else ctx.io.stdout(human);
}

async function runCommand(ctx: Context): Promise<number> {
	const { args, opened } = ctx;
	const index = opened.index;
	switch (args.command) {
		case "index": {
			const sync = await syncFirst(ctx, { progress: true, always: true });
			emit(ctx, "index", { index: opened.indexPath }, formatSyncSummary(sync!), sync);
			return 0;
		}
		case "search": {
			const inSession = option(args, "session");
			if (inSession !== undefined) {
				const sync = await syncFirst(ctx);
				const ref = isSessionPath(inSession) ? sessionPathInRoots(inSession, opened.source.roots()) : inSession;
				const found = inSessionReply(
					index,
					ref,
					{
						query: args.positionals.join(" "),
						role: roles(args),
						limit: intOption(args, "limit", 1, DEFAULTS.inSessionMaxLimit),
						offset: intOption(args, "offset", 0, Number.MAX_SAFE_INTEGER),
					},
					{ readRange: readFileRange },
				);
				emit(ctx, "search", found, formatInSession(found, ctx.style), sync);
				return found.error ? 2 : 0;
			}
			const request = {
				query: args.positionals.join(" "),
				variants: args.options.get("variant"),
				since: option(args, "since"),
				until: option(args, "until"),
				project: option(args, "project"),
				role: roles(args),
				limit: intOption(args, "limit", 1, DEFAULTS.searchMaxLimit),
				agent: agentOption(args),
				readRange: readFileRange,
			};
			const sync = await syncFirst(ctx);
			const response = index.search(request);
			emit(ctx, "search", response, formatSearch(response, ctx.style), sync);
			return response.error ? 2 : 0;
		}
		case "read": {
			const window = intOption(args, "window", 1, CLI_MAX_WINDOW);
			const sync = await syncFirst(ctx);
			const ref = args.positionals[0];
			const target = isSessionPath(ref) ? sessionPathInRoots(ref, opened.source.roots()) : ref;
			const view = index.read(target, { around: option(args, "around"), window, branchTip: option(args, "branch-tip") });
			emit(ctx, "read", view, formatRead(view, ctx.style), sync);
			return 0;
		}
		case "browse": {
			const options = {
				limit: intOption(args, "limit", 1, DEFAULTS.browseMaxLimit),
				project: option(args, "project"),
				since: option(args, "since"),
				until: option(args, "until"),
				agent: agentOption(args),
			};
			const sync = await syncFirst(ctx);
			const sessions = index.browse(options);
			emit(ctx, "browse", { sessions }, formatBrowse(sessions, ctx.style), sync);
			return 0;
		}
		case "export": {
			await syncFirst(ctx);
			const ref = args.positionals[0];
			const target = isSessionPath(ref) ? sessionPathInRoots(ref, opened.source.roots()) : ref;
			return runExport({ args, index, ref: target, stdout: ctx.io.stdout, stderr: ctx.io.stderr });
		}
		case "serve": {
			await syncFirst(ctx);
			const roots = opened.source.roots();
			const serving = await serveViewer({
				indexPath: opened.indexPath,
				webDir: webDir(),
				port: intOption(args, "port", 1, 65535),
				sessionFile: (path) => sessionFileIn(path, roots),
			});
			ctx.io.stdout(`lookback: the viewer is at ${serving.url} (127.0.0.1 only, read-only; Ctrl+C to stop)\n`);
			await new Promise<void>((resolve) => process.once("SIGINT", () => resolve()));
			await serving.close();
			return 0;
		}
		case "usage": {
			const request = {
				by: groupOption(args),
				since: option(args, "since"),
				until: option(args, "until"),
				project: option(args, "project"),
				agent: agentOption(args),
				limit: intOption(args, "limit", 1, 10_000),
				utc: args.flags.has("utc"),
			};
			const sync = await syncFirst(ctx);
			const report = index.usage(request);
			emit(ctx, "usage", report, formatUsage(report, ctx.style, ctx.io.columns), sync);
			return 0;
		}
		case "stats": {
			const stats = index.stats();
			emit(ctx, "stats", { index: opened.indexPath, engine: index.engine, ...stats }, formatStats(stats, opened.indexPath, index.engine));
			return 0;
		}
	}
	return 2;
}

/** A session file inside the session folders, by its real path, or undefined. */
function sessionFileIn(path: string, roots: string[]): string | undefined {
	try {
		return sessionPathInRoots(path, roots);
	} catch {
		return undefined;
	}
}

function indexOptions(args: ParsedArgs, io: CliIO): NodeIndexOptions {
	return {
		indexPath: option(args, "index"),
		agentDir: option(args, "agent-dir"),
		ompAgentDir: option(args, "omp-agent-dir"),
		sessionsDirs: args.options.get("sessions-dir"),
		onlySessionsDirs: args.flags.has("only-sessions-dir"),
		leaveOut: leftOutOption(args),
		engine: engineChoice(option(args, "engine"), io.env),
		env: io.env,
	};
}

/** Run the CLI; returns the exit code (0 ok, 1 failed, 2 bad argument or query). */
export async function run(argv: string[], io: CliIO): Promise<number> {
	const color = io.isTTY && !io.env.NO_COLOR;
	const style = makeStyle(color);
	let args: ParsedArgs;
	try {
		args = parseArgs(argv);
		if (args.flags.has("version")) {
			io.stdout(`lookback ${VERSION}\n`);
			return 0;
		}
		if (args.flags.has("help") || args.command === "" || args.command === "help") {
			io.stdout(HELP);
			return args.command === "" && !args.flags.has("help") ? 2 : 0;
		}
		checkCommand(args);
	} catch (error) {
		io.stderr(`lookback: ${(error as Error).message.replace(/^lookback: /, "")}\n`);
		return 2;
	}
	let opened: NodeIndex | undefined;
	try {
		if (args.command === "mcp") {
			// Loaded only here: the MCP SDK would add its start-up to every other command. The server opens the
			// index itself, after answering the client's handshake.
			const { serveMcp } = await import("../mcp/server.js");
			await serveMcp({
				index: indexOptions(args, io),
				version: VERSION,
				cwd: process.cwd(),
				log: (line) => io.stderr(`${line}\n`),
				redact: redactsByDefault(io.env),
			});
			return 0;
		}
		opened = await openNodeIndex(indexOptions(args, io));
		return await runCommand({ args, io, style, json: args.flags.has("json"), opened });
	} catch (error) {
		const code = error instanceof LookbackError ? error.code : undefined;
		io.stderr(`lookback: ${(error as Error).message.replace(/^lookback: /, "")}\n`);
		return code === "bad-argument" || code === "path-outside-roots" || code === "bad-query" ? 2 : 1;
	} finally {
		opened?.index.close();
	}
}
