/** Where Pi keeps things: its agent dir (which holds lookback's default index) and a custom session dir. */

import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { type Env, expandHome } from "../../../node/home.js";

/** `PI_CODING_AGENT_DIR`, or `~/.pi/agent`. */
export function piAgentDir(env: Env = process.env): string {
	const dir = env.PI_CODING_AGENT_DIR;
	return dir ? resolve(expandHome(dir)) : join(env.HOME || homedir(), ".pi", "agent");
}

/** A custom flat session dir, from `PI_CODING_AGENT_SESSION_DIR` or `sessionDir` in the agent's settings.json. */
export function customSessionDir(agentDir: string, env: Env = process.env): string | undefined {
	if (env.PI_CODING_AGENT_SESSION_DIR) return resolve(expandHome(env.PI_CODING_AGENT_SESSION_DIR));
	try {
		const settings = JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8")) as { sessionDir?: unknown };
		if (typeof settings.sessionDir === "string" && settings.sessionDir.length > 0) {
			return resolve(agentDir, expandHome(settings.sessionDir));
		}
	} catch {
		// no settings, or not plain JSON: no custom dir
	}
	return undefined;
}
