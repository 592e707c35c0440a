/** OpenCode: its sessions are rows of its database, each read as the document `opencode export` prints. */

import type { AgentFacts } from "../agent.js";

export const opencode: AgentFacts<"opencode"> = {
	kind: "opencode",
	label: "OpenCode",
	// `ses_` and letters and digits, as its database and JSON tree name its sessions.
	idShape: /^ses_[A-Za-z0-9]{4,64}$/,
	// 1.18's `-s` outside the session's project waits for ever.
	resume: (id) => `opencode -s ${id}`,
	resumeInProject: true,
	restoredElsewhere: {
		gone: "OpenCode's database no longer holds it; read from lookback's archive (lookback restore {id} writes it to a file for `opencode import`)",
		wrote: "wrote",
		inPlace: "still in OpenCode's database",
	},
	// `<database>/ses_<id>`, or `ses_<id>.json` in its JSON tree (before 1.2).
	idFromFileName: (name) => /^(ses_[0-9A-Za-z]+)(?:\.json)?$/.exec(name)?.[1],
	// 1.2 moved its JSON tree's `ses_<id>.json` into its database, at `<database>/ses_<id>`: the same session.
	movedName: (stem) => /^(ses_[0-9A-Za-z]+)\.json$/.exec(stem)?.[1],
	// Its patch tool's files are read from the patch itself (entry-usage.ts).
	editTools: ["edit", "write"],
};
