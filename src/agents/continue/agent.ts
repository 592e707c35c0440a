/** Continue's CLI, `cn`. */

import { type AgentFacts, UUID } from "../agent.js";

export const continueCli: AgentFacts<"continue"> = {
	kind: "continue",
	label: "Continue",
	// A UUID: `sessions/<id>.json`.
	idShape: UUID,
	// `cn --resume` takes only the newest session and `cn ls` picks one on screen: `--fork <id>` goes on from any one's
	// history (in a new session).
	resume: (id) => `cn --fork ${id}`,
	idFromFileName: (name) => /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.json$/i.exec(name)?.[1],
};
