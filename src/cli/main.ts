/** The `lookback` command line, as a function of argv and streams, so tests run it in-process. */

import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
	DEFAULTS,
	inSessionReply,
	isSessionPath,
	LookbackError,
	type SyncReport,
	terminalSafe,
	terminalSafeDeep,
	terminalSafeJson,
	terminalSafeStyled,
} from "../core/index.js";
import { readConfig } from "../node/config.js";
import { bytesLeft, IndexerSlot } from "../node/indexer-slot.js";
import { type NodeIndex, openNodeIndex } from "../node/open.js";
import { sessionPathInRoots } from "../node/paths.js";
import { dayIn, hookInput, indexStamp, saveCache, statusText, stdinText } from "../node/statusline.js";
import { intOption, option, type ParsedArgs, parseArgs } from "./args.js";
import { commandHelp } from "./command-help.js";
import { type CliIO, checkCommand, indexOptions, VERSION } from "./command-line.js";
import { runExport } from "./export.js";
import { agentOption, goneOption, roles } from "./filter-options.js";
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
import { HELP } from "./help.js";
import { forget, formatForget, formatRestore } from "./history.js";
import { runServe } from "./serve-command.js";
import { formatUsageAnswer, timeZoneOption, type UsageAnswer, usageQuery } from "./usage-command.js";
import { formatMove, whereLooked } from "./where-looked.js";

export type { CliIO } from "./command-line.js";

/** Messages on each side `lookback read --around` may show: a person scrolls a terminal further than a model reads. */
const CLI_MAX_WINDOW = 50;

/** The built viewer: beside the bundled CLI (dist/web), or dist/web of the repo when run from the sources. */
function webDir(): string {
	const beside = fileURLToPath(new URL("./web/", import.meta.url));
	return existsSync(join(beside, "app.js")) ? beside : fileURLToPath(new URL("../../dist/web/", import.meta.url));
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
	/** Another process's sync that was not waited for. */
	indexing?: { done: number; total: number };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Sync before a command (unless --no-sync; `index` always syncs); the index commits as it syncs. While another
 * process holds the indexer slot (a Pi window's first index, say), `index` follows its progress and then syncs;
 * any other command waits for it only when little is left, else answers from what is indexed and says so.
 */
async function syncFirst(ctx: Context, options: { progress?: boolean; always?: boolean } = {}): Promise<SyncReport | undefined> {
	if (!options.always && ctx.args.flags.has("no-sync")) return undefined;
	const bar = options.progress ? progressBar(ctx.io) : undefined;
	const slot = new IndexerSlot(ctx.opened.indexPath);
	while (!slot.take()) {
		const other = slot.other();
		if (other && other.total > 0 && !options.always && bytesLeft(other) > DEFAULTS.syncWaitBytes) {
			ctx.indexing = { done: other.done, total: other.total };
			if (!ctx.json)
				ctx.io.stderr(
					`lookback: another process (pid ${other.pid}) is indexing: ${other.done}/${other.total} files so far; answering from what is indexed\n`,
				);
			return undefined;
		}
		if (other && other.total > 0) bar?.(other);
		await sleep(100);
	}
	try {
		let first = true;
		const report = await ctx.opened.index.sync(ctx.opened.source, {
			onProgress: (p) => {
				slot.publish(p, first);
				first = false;
				bar?.(p);
			},
		});
		slot.complete(true);
		if (!ctx.json) ctx.io.stderr(terminalSafeStyled(formatWarnings(terminalSafeDeep(report), ctx.style)));
		return report;
	} finally {
		slot.release();
	}
}

/**
 * The reply as JSON, or as text for a person (formatted only then: a table of numbers costs a few ms). The text is
 * formatted from a copy of the reply whose strings are terminal-safe (a session's escapes shown, never acted on),
 * and what comes out is fenced once more, lookback's own colours kept; JSON has DEL and C1 escaped too.
 */
function emit<T extends object>(ctx: Context, command: string, payload: T, human: (safe: T) => string, sync?: SyncReport): void {
	const indexing = ctx.indexing ? { indexing: ctx.indexing } : {};
	if (ctx.json)
		ctx.io.stdout(terminalSafeJson(`${JSON.stringify({ command, ...(sync ? { sync } : {}), ...indexing, ...payload }, null, 2)}\n`));
	else ctx.io.stdout(terminalSafeStyled(human(terminalSafeDeep(payload))));
}

/** A reply that is a refusal (a query that cannot run): its JSON as any reply's, or one line on stderr; exit 2. */
function refuse(ctx: Context, command: string, reply: { error?: string }, sync?: SyncReport): number {
	if (ctx.json) emit(ctx, command, reply, () => "", sync);
	else ctx.io.stderr(`lookback: ${terminalSafe(reply.error ?? "")}\n`);
	return 2;
}

async function runCommand(ctx: Context): Promise<number> {
	const { args, opened } = ctx;
	const index = opened.index;
	switch (args.command) {
		case "index": {
			const sync = await syncFirst(ctx, { progress: true, always: true });
			const none = sync !== undefined && sync.filesSeen === 0;
			emit(
				ctx,
				"index",
				{ index: opened.indexPath, sync: sync! },
				(safe) => formatSyncSummary(safe.sync) + (none ? whereLooked(opened.roots, ctx.io.env) : ""),
				sync,
			);
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
					{ readRange: opened.files.readRange },
				);
				if (found.error) return refuse(ctx, "search", found, sync);
				emit(ctx, "search", found, (safe) => formatInSession(safe, ctx.style), sync);
				return 0;
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
				gone: goneOption(args),
				readRange: opened.files.readRange,
			};
			const sync = await syncFirst(ctx);
			const response = index.search(request);
			if (response.error) return refuse(ctx, "search", response, sync);
			emit(ctx, "search", response, (safe) => formatSearch(safe, ctx.style), sync);
			return 0;
		}
		case "read": {
			const window = intOption(args, "window", 1, CLI_MAX_WINDOW);
			const sync = await syncFirst(ctx);
			const ref = args.positionals[0];
			const target = isSessionPath(ref) ? sessionPathInRoots(ref, opened.source.roots()) : ref;
			const full = args.flags.has("full");
			const view = index.read(target, {
				around: option(args, "around"),
				window,
				branchTip: option(args, "branch-tip"),
				...(full ? { wholeText: opened.files.readRange } : {}),
			});
			emit(ctx, "read", view, (safe) => formatRead(safe, ctx.style, full), sync);
			return 0;
		}
		case "browse": {
			const options = {
				limit: intOption(args, "limit", 1, DEFAULTS.browseMaxLimit),
				project: option(args, "project"),
				since: option(args, "since"),
				until: option(args, "until"),
				agent: agentOption(args),
				gone: goneOption(args),
			};
			const sync = await syncFirst(ctx);
			const sessions = index.browse(options);
			emit(ctx, "browse", { sessions }, (safe) => formatBrowse(safe.sessions, ctx.style), sync);
			return 0;
		}
		case "export": {
			await syncFirst(ctx);
			const ref = args.positionals[0];
			const target = isSessionPath(ref) ? sessionPathInRoots(ref, opened.source.roots()) : ref;
			return runExport({ args, index, ref: target, readRange: opened.files.readRange, stdout: ctx.io.stdout, stderr: ctx.io.stderr });
		}
		case "serve":
			return runServe(ctx.args, ctx.io, ctx.opened, webDir());
		case "restore": {
			const ref = args.positionals[0];
			const { restoreIndexed } = await import("../node/restore.js");
			const reply = restoreIndexed(opened, isSessionPath(ref) ? sessionPathInRoots(ref, opened.source.roots()) : ref);
			// The index has it live again (and says so) at once.
			const sync = await opened.index.sync(opened.source);
			emit(ctx, "restore", reply, (safe) => formatRestore(safe, ctx.style), sync);
			return 0;
		}
		case "forget": {
			const sync = await syncFirst(ctx);
			const ref = args.positionals[0];
			const reply = await forget(opened, {
				ref: ref !== undefined && isSessionPath(ref) ? sessionPathInRoots(ref, opened.source.roots()) : ref,
				project: option(args, "project"),
				before: option(args, "before"),
				gone: goneOption(args),
				agent: agentOption(args),
				yes: args.flags.has("yes"),
			});
			emit(ctx, "forget", reply, (safe) => formatForget(safe, ctx.style), sync);
			return 0;
		}
		case "usage": {
			const query = usageQuery(args, ctx.io.env, option(args, "agent-dir"));
			const sync = await syncFirst(ctx);
			const answer: UsageAnswer =
				query.by === "block" ? { blocks: index.usageBlocks(query.request) } : { report: index.usage({ ...query.request, by: query.by }) };
			emit(
				ctx,
				"usage",
				answer.blocks ?? answer.report,
				() => formatUsageAnswer(terminalSafeDeep(answer), query, ctx.style, ctx.io.columns),
				sync,
			);
			return 0;
		}
		case "statusline": {
			// Never a sync: the line answers from the index as it is, and keeps its figures for the next (statusline.ts).
			const input = hookInput(stdinText());
			const zone = timeZoneOption(
				option(args, "timezone") ?? readConfig({ env: ctx.io.env, agentDir: option(args, "agent-dir") }).usage?.timezone,
			);
			const stamp = indexStamp(opened.indexPath);
			const now = Date.now();
			const figures = index.statusFigures({ sessionId: input.sessionId, now, timeZone: zone });
			if (stamp) saveCache(opened.indexPath, stamp, zone ?? "", dayIn(now, zone), input, figures);
			emit(ctx, "statusline", figures, () => statusText(input, figures, now));
			return 0;
		}
		case "stats": {
			const stats = index.stats();
			const archive = opened.archive.stats();
			emit(ctx, "stats", { index: opened.indexPath, engine: index.engine, ...stats, archive }, (safe) =>
				formatStats(safe, safe.index, safe.engine, safe.archive),
			);
			return 0;
		}
	}
	return 2;
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
		const helpOf = args.command === "help" ? args.positionals[0] : args.flags.has("help") ? args.command : undefined;
		if (helpOf) {
			const text = commandHelp(helpOf);
			if (!text) throw new LookbackError("bad-argument", `unknown command "${helpOf}" (see lookback help)`);
			io.stdout(text);
			return 0;
		}
		if (args.flags.has("help") || args.command === "" || args.command === "help") {
			io.stdout(HELP);
			return args.command === "" && !args.flags.has("help") ? 2 : 0;
		}
		checkCommand(args);
	} catch (error) {
		io.stderr(`lookback: ${terminalSafe((error as Error).message.replace(/^lookback: /, ""))}\n`);
		return 2;
	}
	let opened: NodeIndex | undefined;
	try {
		// Loaded only here: the MCP SDK would add its start-up to every other command. (The bin runs it without this
		// module, src/cli-main.ts.)
		if (args.command === "mcp") return await (await import("../mcp/main.js")).runMcp(argv, io);
		// A team's commands: loaded only for them (team.ts).
		const remote =
			["search", "read", "browse", "usage"].includes(args.command) && (option(args, "remote") ?? io.env.LOOKBACK_REMOTE?.trim());
		if (args.command === "publish" || remote) return await (await import("./team.js")).runTeam(args, io, style);
		opened = await openNodeIndex({ ...indexOptions(args, io), copyToMove: true });
		io.stderr(formatMove(opened.moved));
		return await runCommand({ args, io, style, json: args.flags.has("json"), opened });
	} catch (error) {
		const code = error instanceof LookbackError ? error.code : undefined;
		io.stderr(`lookback: ${terminalSafe((error as Error).message.replace(/^lookback: /, ""))}\n`);
		return code === "bad-argument" || code === "path-outside-roots" || code === "bad-query" || code === "index-refused" ? 2 : 1;
	} finally {
		opened?.index.close();
	}
}
