/** What `lookback index` says when it found no session: every folder it looked in, and the variables that move them. */

import { nodeAgent } from "../agents/node-registry.js";
import { AGENT_KINDS, agentFacts } from "../agents/registry.js";
import type { DataMove } from "../node/data-move.js";
import type { Env } from "../node/home.js";
import type { SessionRoot } from "../node/walk-roots.js";

/** The folders walked, by agent (in the registry's order), and each agent's variables with their values here. */
export function whereLooked(roots: readonly SessionRoot[], env: Env): string {
	const lines = ["no sessions found; lookback looked in:"];
	for (const kind of AGENT_KINDS) {
		const mine = roots.filter((r) => (r.agent ?? "pi") === kind);
		const vars = nodeAgent(kind)
			.env.map((name) => `${name}=${env[name] ?? "(unset)"}`)
			.join(", ");
		lines.push(`  ${agentFacts(kind).label}: ${mine.length > 0 ? mine.map((r) => r.path).join(", ") : "(left out)"}`);
		lines.push(`    moved by ${vars}`);
	}
	lines.push("hint: set the variable of an agent whose sessions live elsewhere, or pass --sessions-dir DIR");
	return `${lines.join("\n")}\n`;
}

/** A line on stderr for the move of lookback's data from Pi's agent dir, or nothing. */
export function formatMove(move: DataMove | undefined): string {
	if (!move) return "";
	if (move.outcome === "moved")
		return `lookback: moved the index and archive from ${move.from} to ${move.to} (the old place links to it)\n`;
	if (move.outcome === "failed")
		return `lookback: could not move the index and archive from ${move.from} to ${move.to} (${move.error}); they stay where they are\n`;
	return "";
}
