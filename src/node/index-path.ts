/** Where lookback keeps its index unless told: in Pi's agent dir. */

import { dirname, join } from "node:path";
import { piAgentDir } from "../agents/pi/node/paths.js";
import type { Env } from "./home.js";

/** The default index file: `<agentDir>/lookback/index.db`. */
export function defaultIndexPath(agentDir: string): string {
	return join(agentDir, "lookback", "index.db");
}

/** The index a command or host opens: the one given, else the one in Pi's agent dir. */
export function indexPathOf(options: { indexPath?: string; agentDir?: string; env?: Env }): string {
	return options.indexPath ?? defaultIndexPath(options.agentDir ?? piAgentDir(options.env ?? process.env));
}

/** lookback's own folder, where the default index lies (its config file beside it): moves with the default index. */
export function lookbackFolder(options: { agentDir?: string; env?: Env } = {}): string {
	return dirname(defaultIndexPath(options.agentDir ?? piAgentDir(options.env ?? process.env)));
}
