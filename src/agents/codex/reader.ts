/** How Codex's files are read: its rollouts, the thread names of its session index, its sub-agents' links by thread id. */

import type { AgentReader } from "../agent.js";
import { codexFormat } from "./format.js";
import { codexPicked } from "./picked.js";
import { codexThreadNames } from "./thread-names.js";

export const codexReader: AgentReader = {
	format: codexFormat,
	sessionNames: { file: "session_index.jsonl", read: codexThreadNames },
	// A path in the sub-agent's folder that holds the thread id, until that thread's rollout is indexed.
	spawnerStandIn: (path, sessionId) =>
		`${path.slice(0, Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1)}rollout-${sessionId}.jsonl`,
	picked: codexPicked,
};
