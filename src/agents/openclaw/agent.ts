/** OpenClaw: its agents' transcripts are rows of each agent's database (2026.9), or JSONL files beside it before. */

import { type AgentFacts, UUID } from "../agent.js";

export const openclaw: AgentFacts<"openclaw"> = {
	kind: "openclaw",
	label: "OpenClaw",
	// A UUID: `sessions/<id>.jsonl`, or its row.
	idShape: UUID,
	// 2026.9.6 continues a session by id in its embedded runtime only with a message (its TUI takes a session key).
	resume: (id) => `openclaw agent --local --session-id ${id} --message "continue"`,
	// `<database>/<id>`, or `<id>.jsonl` in an agent's `sessions/` before.
	idFromFileName: (name) => /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:\.jsonl)?$/.exec(name)?.[1],
};
