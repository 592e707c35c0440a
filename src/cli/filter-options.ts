/** The filters a command takes, checked: an unknown agent, role, gone filter or usage group is refused by name. */

import { AGENT_KINDS, type AgentKind, isAgentKind } from "../agents/registry.js";
import { GONE_FILTERS, type GoneFilter, LookbackError, ROLES, type Role, USAGE_GROUPS, type UsageGroup } from "../core/index.js";
import { option, type ParsedArgs } from "./args.js";

export function agentOption(args: ParsedArgs): AgentKind | undefined {
	const agent = option(args, "agent");
	if (agent === undefined || isAgentKind(agent)) return agent;
	throw new LookbackError("bad-argument", `--agent must be one of ${AGENT_KINDS.join(", ")}, not "${agent}"`);
}

export function goneOption(args: ParsedArgs): GoneFilter | undefined {
	const gone = option(args, "gone");
	if (gone === undefined || (GONE_FILTERS as readonly string[]).includes(gone)) return gone as GoneFilter | undefined;
	throw new LookbackError("bad-argument", `--gone must be one of ${GONE_FILTERS.join(", ")}, not "${gone}"`);
}

export function groupOption(args: ParsedArgs): UsageGroup | undefined {
	const by = option(args, "by");
	if (by === undefined || (USAGE_GROUPS as readonly string[]).includes(by)) return by as UsageGroup | undefined;
	throw new LookbackError("bad-argument", `--by must be one of ${USAGE_GROUPS.join(", ")}, not "${by}"`);
}

export function roles(args: ParsedArgs): Role[] | undefined {
	const list = args.options.get("role");
	if (!list) return undefined;
	const out = list.flatMap((r) => r.split(",")).map((r) => r.trim());
	for (const r of out)
		if (!ROLES.includes(r as Role)) throw new LookbackError("bad-argument", `--role must be one of ${ROLES.join(", ")}, not "${r}"`);
	return out as Role[];
}
