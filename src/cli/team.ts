/**
 * The command line's team commands: `lookback publish` (this machine's history as a shard of a bucket) and
 * `search`, `read`, `browse` and `usage` with `--remote URL` or `LOOKBACK_REMOTE` (every shard of a team, by ranges,
 * each hit naming its machine). Loaded only for them: the worker threads and the S3 signer are no other command's cost.
 */

import { DEFAULTS, LookbackError } from "../core/index.js";
import { mergeBrowse, mergeSearch, mergeUsage, type TeamNote } from "../core/team/merge.js";
import { type NodeIndex, openNodeIndex } from "../node/open.js";
import { publish } from "../node/team/publish.js";
import { RemoteTeam } from "../node/team/remote-team.js";
import { intOption, option, type ParsedArgs } from "./args.js";
import { type CliIO, indexOptions } from "./command-line.js";
import { formatBrowse, formatMB, formatRead, formatSearch, type Style } from "./format.js";
import { formatUsage } from "./usage-format.js";

/** The team a command reads: `--remote`, else `LOOKBACK_REMOTE`; undefined for this machine's own index. */
export function remoteOf(args: ParsedArgs, env: CliIO["env"]): string | undefined {
	return option(args, "remote") ?? (env.LOOKBACK_REMOTE?.trim() || undefined);
}

/** Each hit or session as the machine's: its agent is printed as `agent@machine`. */
function onMachine<T extends { agent: string; shard: string }>(items: T[]): T[] {
	return items.map((item) => ({ ...item, agent: `${item.agent}@${item.shard}` }));
}

function unreachableLines(note: TeamNote, style: Style): string {
	return note.unreachable.map((p) => `${style.warn(`shard ${p.shard} did not answer:`)} ${p.error}\n`).join("");
}

function emit(io: CliIO, json: boolean, command: string, payload: object, human: () => string): void {
	io.stdout(json ? `${JSON.stringify({ command, ...payload }, null, 2)}\n` : human());
}

/** Every shard failed: nothing to show but why. */
function allFailed(note: TeamNote): boolean {
	return note.shards.length === 0 && note.unreachable.length > 0;
}

async function runRemote(args: ParsedArgs, io: CliIO, style: Style, url: string): Promise<number> {
	const json = args.flags.has("json");
	const team = await RemoteTeam.open(url, io.env);
	try {
		const transfer = () => (json ? { transfer: team.counters } : {});
		switch (args.command) {
			case "search": {
				if (option(args, "session") !== undefined)
					throw new LookbackError("bad-argument", "search --session does not take --remote yet: read the session");
				const limit = intOption(args, "limit", 1, DEFAULTS.searchMaxLimit) ?? DEFAULTS.searchLimit;
				const query = args.positionals.join(" ");
				const request = {
					query,
					variants: args.options.get("variant"),
					since: option(args, "since"),
					until: option(args, "until"),
					project: option(args, "project"),
					role: args.options.get("role")?.flatMap((r) => r.split(",")),
					limit,
					agent: option(args, "agent"),
					gone: option(args, "gone"),
				};
				const merged = mergeSearch(query, await team.fanOut("search", [request]), limit);
				emit(
					io,
					json,
					"search",
					{ remote: team.describe, ...merged, ...transfer() },
					() =>
						formatSearch({ ...merged, results: onMachine(merged.results) } as Parameters<typeof formatSearch>[0], style) +
						unreachableLines(merged, style),
				);
				return allFailed(merged) ? 1 : merged.error ? 2 : 0;
			}
			case "browse": {
				const limit = intOption(args, "limit", 1, DEFAULTS.browseMaxLimit) ?? DEFAULTS.browseLimit;
				const options = {
					limit,
					project: option(args, "project"),
					since: option(args, "since"),
					until: option(args, "until"),
					agent: option(args, "agent"),
					gone: option(args, "gone"),
				};
				const merged = mergeBrowse(await team.fanOut("browse", [options]), limit);
				emit(
					io,
					json,
					"browse",
					{ remote: team.describe, ...merged, ...transfer() },
					() => formatBrowse(onMachine(merged.sessions) as Parameters<typeof formatBrowse>[0], style) + unreachableLines(merged, style),
				);
				return allFailed(merged) ? 1 : 0;
			}
			case "usage": {
				const limit = intOption(args, "limit", 1, 10_000) ?? 50;
				const request = {
					by: option(args, "by"),
					since: option(args, "since"),
					until: option(args, "until"),
					project: option(args, "project"),
					agent: option(args, "agent"),
					limit,
					utc: args.flags.has("utc"),
				};
				const merged = mergeUsage(await team.fanOut("usage", [request]), limit);
				emit(
					io,
					json,
					"usage",
					{ remote: team.describe, ...merged, ...transfer() },
					() => formatUsage(merged, style, io.columns) + unreachableLines(merged, style),
				);
				return allFailed(merged) ? 1 : 0;
			}
			case "read": {
				const ref = args.positionals[0];
				const machine = option(args, "shard");
				const full = args.flags.has("full");
				const options = { around: option(args, "around"), window: intOption(args, "window", 1, 50), branchTip: option(args, "branch-tip") };
				const fanned = await team.fanOut<Parameters<typeof formatRead>[0]>(
					"read",
					[ref, options, full],
					machine ? (s) => s === machine : undefined,
				);
				if (fanned.answers.length > 1)
					throw new LookbackError(
						"session-ambiguous",
						`session ${ref} is on several machines (${fanned.answers.map((a) => a.shard).join(", ")}): add --shard NAME`,
					);
				const found = fanned.answers[0];
				if (!found) {
					const why = fanned.problems.map((p) => `; shard ${p.shard} did not answer: ${p.error}`).join("");
					throw new LookbackError("session-not-found", `no shard of ${team.describe} has session ${ref}${why}`);
				}
				const note = { shards: [found.shard], unreachable: fanned.problems };
				emit(
					io,
					json,
					"read",
					{ remote: team.describe, shard: found.shard, ...found.value, ...note, ...transfer() },
					() => `${style.dim(`on ${found.shard}`)}\n${formatRead(found.value, style, full)}${unreachableLines(note, style)}`,
				);
				return 0;
			}
		}
		throw new LookbackError("bad-argument", `${args.command} does not take --remote`);
	} finally {
		await team.close();
	}
}

async function runPublish(args: ParsedArgs, io: CliIO, style: Style): Promise<number> {
	const json = args.flags.has("json");
	let opened: NodeIndex | undefined;
	try {
		opened = await openNodeIndex(indexOptions(args, io));
		const report = await publish(opened, args.positionals[0], option(args, "as"), {
			env: io.env,
			log: (line) => (json ? undefined : io.stderr(`${line}\n`)),
		});
		emit(io, json, "publish", report, () => {
			const share = report.shardBytes > 0 ? ((report.uploadedBytes / report.shardBytes) * 100).toFixed(1) : "0";
			return `${style.bold(`published "${report.name}"`)} to ${report.remote}: ${report.sessions} sessions, shard ${formatMB(report.shardBytes)}, sent ${formatMB(report.uploadedBytes)} (${share}%) in ${report.uploadedObjects} objects, ${report.reusedPages} pages kept${report.laidOut ? ", laid out anew" : ""} in ${report.seconds.toFixed(1)} s\n`;
		});
		return 0;
	} finally {
		opened?.index.close();
	}
}

/** Run a team command: publish, or a read command given a remote. */
export async function runTeam(args: ParsedArgs, io: CliIO, style: Style): Promise<number> {
	if (args.command === "publish") return runPublish(args, io, style);
	const url = remoteOf(args, io.env);
	if (!url) throw new LookbackError("bad-argument", "no remote given");
	return runRemote(args, io, style, url);
}
