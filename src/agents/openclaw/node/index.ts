/**
 * OpenClaw on this machine: its state folder (`OPENCLAW_STATE_DIR`, else `~/.openclaw`), each agent's database of
 * transcripts (2026.9) and its JSONL transcripts from before (walk.ts).
 */

import { LookbackError } from "../../../core/index.js";
import type { NodeAgent } from "../../node-agent.js";
import { openclawStateDir } from "./paths.js";
import { readOpenclawDocument, sessionInOpenclawDb, walkOpenclaw } from "./walk.js";

export const openclawNode: NodeAgent = {
	roots: ({ env }) => [{ path: openclawStateDir(env), layout: "openclaw", agent: "openclaw" }],
	walks: { openclaw: walkOpenclaw },
	sessionEndings: [{ ending: ".jsonl" }],
	store: {
		what: "a session inside an OpenClaw agent's database (<openclaw-agent.sqlite>/<id>)",
		sessionIn: sessionInOpenclawDb,
		readDocument: readOpenclawDocument,
	},
	// A transcript file from before the database is written back as any; one of the database is not (lookback never writes it).
	restore(_archive, sessions) {
		const inDb = sessions.find((s) => sessionInOpenclawDb(s.path) !== undefined || s.path.includes("openclaw-agent.sqlite"));
		if (!inDb) return undefined;
		throw new LookbackError(
			"restore-refused",
			`cannot restore ${inDb.sessionId}: OpenClaw keeps it in its agent's database, which lookback never writes; read it with \`lookback read ${inDb.sessionId}\` or \`lookback export ${inDb.sessionId}\``,
		);
	},
	env: ["OPENCLAW_STATE_DIR"],
};
