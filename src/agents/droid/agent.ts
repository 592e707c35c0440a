/** Factory Droid: one JSONL file per session under `~/.factory/sessions/<cwd with '/' as '->/`. */

import { type AgentFacts, UUID } from "../agent.js";

export const droid: AgentFacts<"droid"> = {
	kind: "droid",
	label: "Factory Droid",
	// A UUID: `<id>.jsonl`.
	idShape: UUID,
	resume: (id) => `droid --resume ${id}`,
	// Its sessions are listed by the folder they ran in (`--resume --last` takes the folder's newest).
	resumeInProject: true,
	idFromFileName: (name) => /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/.exec(name)?.[1],
};
