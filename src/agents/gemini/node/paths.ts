/** Where Gemini CLI keeps its chats. */

import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { type Env, expandHome } from "../../../node/home.js";

/** Gemini CLI's dir: `$GEMINI_CLI_HOME/.gemini` when set and not empty, else `~/.gemini`. Chats are in its `tmp/<project>/chats/`. */
export function geminiDir(env: Env = process.env): string {
	const home = env.GEMINI_CLI_HOME;
	return join(home ? resolve(expandHome(home)) : env.HOME || homedir(), ".gemini");
}
