/** Kilo Code CLI (a fork of OpenCode): its sessions are rows of its database, each read as the document `kilo export` prints. */

import type { AgentFacts } from "../agent.js";

export const kilo: AgentFacts<"kilo"> = {
	kind: "kilo",
	label: "Kilo Code",
	// As OpenCode's: `ses_` and letters and digits.
	idShape: /^ses_[A-Za-z0-9]{4,64}$/,
	resume: (id) => `kilo -s ${id}`,
	// As OpenCode's, a session belongs to the project it ran in.
	resumeInProject: true,
	restoredElsewhere: {
		gone: "Kilo Code's database no longer holds it; read from lookback's archive (lookback restore {id} writes it to a file for `kilo import`)",
		wrote: "wrote",
		inPlace: "still in Kilo Code's database",
	},
	// `<database>/ses_<id>`.
	idFromFileName: (name) => /^(ses_[0-9A-Za-z]+)$/.exec(name)?.[1],
};
