/** GitHub Copilot CLI. */

import { type AgentFacts, UUID } from "../agent.js";

export const copilot: AgentFacts<"copilot"> = {
	kind: "copilot",
	label: "GitHub Copilot CLI",
	// A UUID: `session-state/<id>/`.
	idShape: UUID,
	// `--resume` takes a session id from anywhere, and goes back to the session's own folder.
	resume: (id) => `copilot --resume=${id}`,
};
