/**
 * How Kilo Code's sessions are read: its rows are OpenCode's (a fork), rendered by its walk as the document `kilo
 * export` prints (OpenCode's shape), read with OpenCode's parser under Kilo Code's name and tested release.
 */

import type { AgentReader } from "../agent.js";
import { exportFormat } from "../opencode/format.js";
import { isKiloDbName } from "./layout.js";

/** The newest Kilo Code whose sessions were read in tests (test/agents/kilo-cli.test.ts). */
const KILO_TESTED_VERSION = "7.7.7";

export const kiloReader: AgentReader = {
	format: exportFormat({ label: "Kilo Code", testedVersion: KILO_TESTED_VERSION }),
	picked: { takes: (_path, name) => isKiloDbName(name) },
};
