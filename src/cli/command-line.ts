/**
 * What every command of the command line shares: its streams, the commands and the options each takes, and the
 * index options they make. Imported by `lookback mcp` before the rest of the command line or the core loads
 * (src/mcp/main.ts), so it imports only the core's small modules, not its barrel.
 */

import { AGENT_FACTS, AGENT_KINDS, type AgentKind, isAgentKind } from "../agents/registry.js";
import { LookbackError } from "../core/errors.js";
import { engineChoice } from "../node/engine-name.js";
import type { NodeIndexOptions } from "../node/open.js";
import { option, type ParsedArgs } from "./args.js";

export interface CliIO {
	stdout: (text: string) => void;
	stderr: (text: string) => void;
	env: Record<string, string | undefined>;
	/** Whether stdout/stderr are terminals (progress bar, colour). */
	isTTY: boolean;
	/** The terminal's width, when stdout is one. */
	columns?: number;
}

export const VERSION = "0.1.0";

const COMMANDS: Record<string, { positionals: "none" | "one" | "optional" | "many"; options: string[] }> = {
	index: { positionals: "none", options: [] },
	search: {
		positionals: "many",
		options: ["since", "until", "project", "role", "limit", "agent", "session", "offset", "variant", "gone", "remote"],
	},
	read: { positionals: "one", options: ["around", "window", "branch-tip", "remote", "shard"] },
	browse: { positionals: "none", options: ["since", "until", "project", "limit", "agent", "gone", "remote"] },
	restore: { positionals: "one", options: [] },
	forget: { positionals: "optional", options: ["project", "before", "gone", "agent"] },
	export: { positionals: "one", options: ["format", "branch", "out"] },
	stats: { positionals: "none", options: [] },
	usage: { positionals: "none", options: ["since", "until", "project", "agent", "by", "limit", "utc", "remote"] },
	serve: { positionals: "none", options: ["port", "remote"] },
	publish: { positionals: "one", options: ["as"] },
	mcp: { positionals: "none", options: ["remote"] },
};
const COMMON = new Set(["index", "agent-dir", "sessions-dir", "no-agent", "engine"]);

/** The options every command takes: COMMON, and each agent's option naming its own folder (`AgentFacts.dirOption`). */
function isCommon(name: string): boolean {
	return COMMON.has(name) || AGENTS_WITH_DIRS().some((a) => a.dirOption.name === name);
}

const AGENTS_WITH_DIRS = () => AGENT_FACTS.flatMap((a) => (a.dirOption ? [{ kind: a.kind, dirOption: a.dirOption }] : []));

/** The agents' own folders given by their options. */
function agentDirOptions(args: ParsedArgs): Partial<Record<AgentKind, string>> {
	const dirs: Partial<Record<AgentKind, string>> = {};
	for (const { kind, dirOption } of AGENTS_WITH_DIRS()) {
		const dir = option(args, dirOption.name);
		if (dir !== undefined) dirs[kind] = dir;
	}
	return dirs;
}

export function checkCommand(args: ParsedArgs): void {
	const spec = COMMANDS[args.command];
	if (!spec) throw new LookbackError("bad-argument", `unknown command "${args.command}" (commands: ${Object.keys(COMMANDS).join(", ")})`);
	for (const name of [...args.options.keys(), ...[...args.flags].filter((f) => f === "utc")]) {
		if (!isCommon(name) && !spec.options.includes(name)) throw new LookbackError("bad-argument", `${args.command} does not take --${name}`);
	}
	const n = args.positionals.length;
	if (spec.positionals === "none" && n > 0)
		throw new LookbackError("bad-argument", `${args.command} takes no arguments, got "${args.positionals[0]}"`);
	if (spec.positionals === "one" && n !== 1)
		throw new LookbackError(
			"bad-argument",
			`${args.command} needs exactly one ${args.command === "publish" ? "PLACE (s3://bucket/prefix or file:///dir)" : "SESSION"}`,
		);
	if (spec.positionals === "optional" && n > 1) throw new LookbackError("bad-argument", `${args.command} takes at most one SESSION`);
	if (spec.positionals === "many" && n === 0) throw new LookbackError("bad-argument", `${args.command} needs a QUERY`);
}

function leftOutOption(args: ParsedArgs): AgentKind[] | undefined {
	const names = args.options.get("no-agent")?.flatMap((n) => n.split(",").map((s) => s.trim()));
	if (!names) return undefined;
	for (const n of names)
		if (!isAgentKind(n)) throw new LookbackError("bad-argument", `--no-agent must name one of ${AGENT_KINDS.join(", ")}, not "${n}"`);
	return names as AgentKind[];
}

export function indexOptions(args: ParsedArgs, io: CliIO): NodeIndexOptions {
	return {
		indexPath: option(args, "index"),
		agentDir: option(args, "agent-dir"),
		agentDirs: agentDirOptions(args),
		sessionsDirs: args.options.get("sessions-dir"),
		onlySessionsDirs: args.flags.has("only-sessions-dir"),
		leaveOut: leftOutOption(args),
		archive: args.flags.has("no-archive") ? false : undefined,
		engine: engineChoice(option(args, "engine"), io.env),
		env: io.env,
	};
}
