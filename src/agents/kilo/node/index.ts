/**
 * Kilo Code on this machine: its data folder's databases and one `KILO_DB` names elsewhere, read as OpenCode's are
 * (its rows are OpenCode's): each session walked at a virtual path inside its database and rendered whole when read.
 */

import { basename, dirname, resolve } from "node:path";
import type { NodeAgent } from "../../node-agent.js";
import { sessionInDatabase } from "../../opencode/node/paths.js";
import { exportsRestore } from "../../opencode/node/restore.js";
import { readOpencodeDocument, storeWalk } from "../../opencode/node/walk.js";
import { kilo } from "../agent.js";
import { isKiloDbName } from "../layout.js";
import { kiloDataDir, kiloDbOverride } from "./paths.js";

export const kiloNode: NodeAgent = {
	roots({ env }) {
		const data = kiloDataDir(env);
		const db = kiloDbOverride(env);
		const elsewhere = db && !(resolve(dirname(db)) === resolve(data) && isKiloDbName(basename(db)));
		return [{ path: data, layout: "kilo", agent: "kilo" }, ...(elsewhere ? [{ path: db, layout: "kilo", agent: "kilo" as const }] : [])];
	},
	// Kilo Code never wrote OpenCode's JSON tree (its `storage/` holds only diffs).
	walks: { kilo: storeWalk({ isDbName: isKiloDbName, legacyTree: false }) },
	sessionEndings: [],
	store: {
		what: "a session inside a Kilo Code database (<kilo.db>/ses_…)",
		sessionIn: sessionInDatabase,
		readDocument: readOpencodeDocument,
	},
	restore: exportsRestore({ kind: kilo.kind, label: kilo.label, command: "kilo" }),
	env: ["XDG_DATA_HOME", "KILO_DB"],
};
