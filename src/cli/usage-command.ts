/**
 * `lookback usage`: the report by period, project, model, agent or session, or by billing block (`--by block`), with
 * the options' defaults from lookback's config file (an option given overrides its default).
 */

import { LookbackError } from "../core/errors.js";
import { type BlockReport, USAGE_GROUPS, type UsageGroup, type UsageReport } from "../core/index.js";
import { zoneOffset } from "../core/usage/report.js";
import { readConfig } from "../node/config.js";
import { option, type ParsedArgs } from "./args.js";
import { formatBlocks } from "./blocks-format.js";
import { agentOption } from "./filter-options.js";
import { formatUsage } from "./usage-format.js";

/** A command line's option or its config default, as text. */
function withDefault(args: ParsedArgs, name: string, fallback: unknown): string | undefined {
	return option(args, name) ?? (fallback === undefined ? undefined : String(fallback));
}

function whole(name: string, text: string | undefined, min: number): number | undefined {
	if (text === undefined) return undefined;
	const n = Number(text);
	if (!Number.isInteger(n) || n < min)
		throw new LookbackError("bad-argument", `--${name} must be a whole number from ${min}, not "${text}"`);
	return n;
}

/** A time zone Intl knows, checked here so that a typo is an error, not the local zone. */
export function timeZoneOption(text: string | undefined): string | undefined {
	if (text === undefined) return undefined;
	try {
		zoneOffset(text)(0);
	} catch {
		throw new LookbackError("bad-argument", `--timezone must be an IANA time zone (Europe/Berlin, America/New_York, UTC), not "${text}"`);
	}
	return text;
}

export type UsageAnswer = { report: UsageReport; blocks?: undefined } | { blocks: BlockReport; report?: undefined };

export interface UsageQuery {
	by: UsageGroup | "block";
	request: Record<string, unknown>;
	zone: { utc?: boolean; timeZone?: string };
}

/** What a usage command line asks, its defaults read from the config file. */
export function usageQuery(args: ParsedArgs, env: Record<string, string | undefined>, agentDir?: string): UsageQuery {
	const defaults = readConfig({ env, agentDir }).usage ?? {};
	const by = withDefault(args, "by", defaults.by);
	if (by !== undefined && by !== "block" && !(USAGE_GROUPS as readonly string[]).includes(by))
		throw new LookbackError("bad-argument", `--by must be one of ${[...USAGE_GROUPS, "block"].join(", ")}, not "${by}"`);
	const limitText = withDefault(args, "token-limit", defaults["token-limit"]);
	const tokenLimit = limitText === "max" ? "max" : whole("token-limit", limitText, 1);
	const utc = args.flags.has("utc") || (defaults.utc === true && option(args, "timezone") === undefined);
	const timeZone = utc ? undefined : timeZoneOption(withDefault(args, "timezone", defaults.timezone));
	const request = {
		since: option(args, "since"),
		until: option(args, "until"),
		project: option(args, "project"),
		agent: agentOption(args),
		limit: whole("limit", option(args, "limit"), 1),
		last: whole("last", withDefault(args, "last", defaults.last), 1),
		utc,
		timeZone,
		tokenLimit,
	};
	return { by: (by ?? "day") as UsageGroup | "block", request, zone: { utc, timeZone } };
}

/** The answer as text for a person. */
export function formatUsageAnswer(
	answer: UsageAnswer,
	query: UsageQuery,
	style: Parameters<typeof formatUsage>[1],
	columns?: number,
): string {
	return answer.blocks ? formatBlocks(answer.blocks, style, query.zone) : formatUsage(answer.report, style, columns);
}
