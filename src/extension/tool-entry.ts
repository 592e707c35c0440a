/**
 * What the extension needs in Pi's process once it reads the index there (the overlay, `/lookback`) or indexes
 * there (no indexer process could start): opening the index and the tool's calls. Bundled as
 * dist/extension-tool.cjs (scripts/build-host.mjs) and loaded by Node's own `require` (tool-loader.ts): through
 * Pi's jiti the same 80-odd modules took 25 times as long. No Pi package is in it.
 */

export { openNodeIndex } from "../node/open.js";
export { TOOL_CALLS } from "./tool-calls.js";
