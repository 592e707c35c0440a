/** omp on this machine: its sessions (in Pi's layout) unless Pi's agent dir is the same folder, and its archive. */

import { resolve } from "node:path";
import type { NodeAgent } from "../../node-agent.js";
import { ompAgentDir as ompAgentDirOf } from "./paths.js";
import { walkArchive } from "./walk.js";

export const ompNode: NodeAgent = {
	roots({ env, agentDir, dirs }) {
		const ompAgentDir = dirs.omp ?? ompAgentDirOf(env);
		return [
			...(resolve(ompAgentDir) !== resolve(agentDir) ? [{ path: `${ompAgentDir}/sessions`, layout: "nested", agent: "omp" as const }] : []),
			{ path: `${ompAgentDir}/archive/sessions`, layout: "archive", agent: "omp" },
		];
	},
	walks: { archive: walkArchive },
	sessionEndings: [{ ending: ".jsonl" }, { ending: ".jsonl.gz", what: "an omp archive" }],
	env: ["OMP_PROFILE", "PI_CONFIG_DIR", "XDG_DATA_HOME"],
	ownDir: ({ env, dirs }) => dirs.omp ?? ompAgentDirOf(env),
};
