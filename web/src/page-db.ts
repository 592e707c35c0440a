/**
 * The page's worker, started by the page's first script (boot.js, this module alone: index.html loads it before
 * app.js, which imports it from there), handed the engine's wasm compiled here meanwhile, and asked at once to open
 * the index: the worker loads its script, the engine and the index while app.js, a few hundred times the size, is
 * still being fetched and evaluated. Measured on a loaded 2 vCPU machine: the worker was made 0.2–0.4 s after the
 * navigation began when app.js made it, 0.1–0.15 s from here; its engine, which it fetched and compiled after its own
 * 0.5 MB script, ready as that script has run.
 */

import { startDb } from "./db-client.js";
import { compiledWasm } from "./engine-wasm.js";
import { openRequest } from "./open-request.js";
import type { IndexInfo } from "./protocol.js";

/** The engine's wasm is fetched and compiled here meanwhile, and handed to the worker: it needs it first. */
export const db = startDb("worker.js", compiledWasm("sql-wasm.wasm"));

/** The first open's answer, for the page to take (it says what failed). */
export const firstOpen: Promise<IndexInfo> = openRequest().then((request) => db.call("open", request));
firstOpen.catch(() => undefined); // handled by the page, later than this line
