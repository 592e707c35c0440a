/** Where OpenClaw keeps its state, as 2026.9.6 finds it: `OPENCLAW_STATE_DIR` (its `--profile` sets it), else `~/.openclaw`. */

import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { type Env, expandHome } from "../../../node/home.js";

export function openclawStateDir(env: Env = process.env): string {
	const state = env.OPENCLAW_STATE_DIR?.trim();
	return state ? resolve(expandHome(state)) : join(env.HOME || homedir(), ".openclaw");
}
