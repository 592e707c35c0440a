/** The processes an MCP client started, found by what their command line names (a test's own agent dir). */

import { readdirSync, readFileSync } from "node:fs";

/** Processes whose command line names `marker`. */
export function processesNaming(marker: string): number[] {
	return readdirSync("/proc")
		.filter((p) => /^\d+$/.test(p))
		.filter((p) => {
			try {
				return readFileSync(`/proc/${p}/cmdline`, "utf8").includes(marker);
			} catch {
				return false;
			}
		})
		.map(Number);
}
