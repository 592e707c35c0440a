/** Where lookback keeps its index unless told: in Pi's agent dir. */

import { join } from "node:path";
import { piAgentDir } from "../agents/pi/node/paths.js";
import type { Env } from "./home.js";

/** The default index file: `<agentDir>/lookback/index.db`. */
export function defaultIndexPath(agentDir: string): string {
	return join(agentDir, "lookback", "index.db");
}

/** The index a person named: `--index` (the option given), else `LOOKBACK_INDEX`; undefined for the default one. */
export function givenIndexPath(options: { indexPath?: string; env?: Env }): string | undefined {
	return options.indexPath ?? ((options.env ?? process.env).LOOKBACK_INDEX || undefined);
}

/** The index a command or host opens: the one given (`--index`, `LOOKBACK_INDEX`), else the one in Pi's agent dir. */
export function indexPathOf(options: { indexPath?: string; agentDir?: string; env?: Env }): string {
	return givenIndexPath(options) ?? defaultIndexPath(options.agentDir ?? piAgentDir(options.env ?? process.env));
}
