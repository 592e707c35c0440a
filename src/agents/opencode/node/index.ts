/**
 * OpenCode on this machine: its data folder (its databases and its older JSON tree) and a database `OPENCODE_DB`
 * names elsewhere; each session walked at a virtual path inside its database and rendered whole when read (walk.ts).
 */

import { basename, dirname, resolve } from "node:path";
import type { NodeAgent } from "../../node-agent.js";
import { isOpencodeDbName } from "../layout.js";
import { opencodeDataDir, opencodeDbOverride, sessionInDatabase } from "./paths.js";
import { restoreOpencode } from "./restore.js";
import { readOpencodeDocument, walkOpencode } from "./walk.js";

export const opencodeNode: NodeAgent = {
	roots({ env }) {
		const data = opencodeDataDir(env);
		const db = opencodeDbOverride(env);
		const elsewhere = db && !(resolve(dirname(db)) === resolve(data) && isOpencodeDbName(basename(db)));
		return [
			{ path: data, layout: "opencode", agent: "opencode" },
			...(elsewhere ? [{ path: db, layout: "opencode", agent: "opencode" as const }] : []),
		];
	},
	walks: { opencode: walkOpencode },
	sessionEndings: [{ ending: ".json", what: "an OpenCode session before 1.2" }],
	store: {
		what: "a session inside an OpenCode database (<opencode.db>/ses_…)",
		sessionIn: sessionInDatabase,
		readDocument: readOpencodeDocument,
	},
	restore: restoreOpencode,
	env: ["XDG_DATA_HOME", "OPENCODE_DB"],
};
