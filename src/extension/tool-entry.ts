/**
 * The half of the extension that a search needs — the replies, the core, the engine, the index opened here —
 * bundled as dist/extension-tool.cjs (scripts/build-host.mjs) and loaded natively with the first search
 * (tool-loader.ts): through Pi's jiti the same 80-odd modules took 25 times as long. No Pi package is in it
 * (they are Pi's, given through jiti's aliases to the modules the entry loads).
 */

export { openNodeIndex } from "../node/open.js";
export { liveContextFilter } from "./live-context.js";
export { runSessionSearch } from "./run-tool.js";
