/** Where Qwen Code keeps its chats. */

import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { type Env, expandHome } from "../../../node/home.js";

/**
 * Qwen Code's runtime dir, as it resolves it: `QWEN_RUNTIME_DIR`, else `QWEN_HOME`, else `~/.qwen` (set and not
 * empty). Chats are in its `projects/<project>/chats/`.
 */
export function qwenRuntimeDir(env: Env = process.env): string {
	const dir = env.QWEN_RUNTIME_DIR || env.QWEN_HOME;
	return dir ? resolve(expandHome(dir)) : join(env.HOME || homedir(), ".qwen");
}
