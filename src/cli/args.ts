/** Command-line arguments: a command, positionals and `--flag value` options, checked against what each command takes. */

// The core's errors alone, not its barrel: `lookback mcp` parses its arguments before the core loads (src/mcp/main.ts).
import { AGENT_FACTS } from "../agents/registry.js";
import { LookbackError } from "../core/errors.js";

export interface ParsedArgs {
	command: string;
	positionals: string[];
	options: Map<string, string[]>;
	flags: Set<string>;
}

/** Options that take a value, by name; `repeat` ones may be given more than once. */
const VALUE_OPTIONS: Record<string, { repeat?: boolean }> = {
	index: {},
	"agent-dir": {},
	"sessions-dir": { repeat: true },
	"no-agent": { repeat: true },
	session: {},
	variant: { repeat: true },
	offset: {},
	since: {},
	until: {},
	project: {},
	agent: {},
	role: { repeat: true },
	limit: {},
	around: {},
	window: {},
	"branch-tip": {},
	gone: {},
	before: {},
	port: {},
	engine: {},
	by: {},
	format: {},
	branch: {},
	out: {},
	as: {},
	remote: {},
	shard: {},
};
const FLAGS = new Set(["json", "no-sync", "help", "version", "only-sessions-dir", "no-archive", "yes", "full", "utc", "no-redact"]);

export function parseArgs(argv: string[]): ParsedArgs {
	const parsed: ParsedArgs = { command: "", positionals: [], options: new Map(), flags: new Set() };
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === "--") {
			parsed.positionals.push(...argv.slice(i + 1));
			break;
		}
		if (arg.startsWith("--")) {
			const eq = arg.indexOf("=");
			const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
			if (FLAGS.has(name) && eq < 0) {
				parsed.flags.add(name);
				continue;
			}
			// An agent's option naming its own folder (`AgentFacts.dirOption`: `--omp-agent-dir`) takes a value too.
			const spec = VALUE_OPTIONS[name] ?? (AGENT_FACTS.some((a) => a.dirOption?.name === name) ? {} : undefined);
			if (!spec) throw new LookbackError("bad-argument", `unknown option --${name} (see lookback --help)`);
			const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
			if (value === undefined) throw new LookbackError("bad-argument", `--${name} needs a value`);
			const list = parsed.options.get(name) ?? [];
			if (list.length > 0 && !spec.repeat) throw new LookbackError("bad-argument", `--${name} given twice`);
			list.push(value);
			parsed.options.set(name, list);
			continue;
		}
		if (arg === "-h") {
			parsed.flags.add("help");
			continue;
		}
		if (arg === "-v") {
			parsed.flags.add("version");
			continue;
		}
		if (parsed.command === "") parsed.command = arg;
		else parsed.positionals.push(arg);
	}
	return parsed;
}

export function option(args: ParsedArgs, name: string): string | undefined {
	return args.options.get(name)?.[0];
}

/** A positive integer option within bounds. */
export function intOption(args: ParsedArgs, name: string, min: number, max: number): number | undefined {
	const text = option(args, name);
	if (text === undefined) return undefined;
	const n = Number(text);
	if (!Number.isInteger(n) || n < min || n > max) {
		throw new LookbackError("bad-argument", `--${name} must be a whole number from ${min} to ${max}, not "${text}"`);
	}
	return n;
}
