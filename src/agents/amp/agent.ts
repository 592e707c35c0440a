/**
 * Amp (Sourcegraph's agent CLI): one JSON document per thread, `T-<uuid>.json` in its data folder. Read from its
 * documented format and public readers of it (format.ts), never from files the real CLI wrote here: it needs its
 * service to run.
 */

import type { AgentFacts } from "../agent.js";

export const amp: AgentFacts<"amp"> = {
	kind: "amp",
	label: "Amp",
	// `T-<uuid>`: its file's name.
	idShape: /^T-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
	resume: (id) => `amp threads continue ${id}`,
	// `T-<uuid>.json`: the thread id is the file's name.
	idFromFileName: (name) => /^(T-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.json$/i.exec(name)?.[1],
	editTools: ["edit_file", "create_file", "undo_edit"],
};
