/**
 * What the extension's entry needs to register itself, bundled as dist/extension-entry.cjs (scripts/build-host.mjs)
 * so that Pi loads it with Node's own `require` rather than through jiti module by module (index.ts). No Pi
 * package may be imported here: a bundle loaded natively would get its own copy, not the host's (the renderers
 * are handed the host's TUI component by the entry).
 */

export { agentLabels } from "../agents/registry.js";
export { DEFAULTS, thousands } from "../core/defaults.js";
export { liveContext } from "./live-context.js";
export { type SessionSearchParams, sessionSearchParams } from "./params.js";
export { renderCall, renderResult } from "./render.js";
export { endSession, hostIndex, startBackgroundIndex } from "./shared-index.js";
