/**
 * A page-side check that the core runs in a browser: engine from wasm by URL, index on IndexedDB,
 * sync from session files fetched over HTTP, search, save, reopen after a reload.
 */

import { createStore, set } from "idb-keyval";
import { LookbackIndex, memorySource } from "../../src/core/index.js";
import { loadWebEngine } from "./engine.js";
import { idbStorage } from "./idb-storage.js";

const store = createStore("lookback-smoke", "index");

async function open() {
	const sql = await loadWebEngine({ wasmUrl: "/sql-wasm.wasm" });
	return LookbackIndex.open({ sql, storage: idbStorage("index.db", store) });
}

async function sessions() {
	const list = (await (await fetch("/sessions.json")).json()) as string[];
	const files = new Map<string, Uint8Array>();
	for (const path of list) files.set(`/${path}`, new Uint8Array(await (await fetch(`/sessions/${path}`)).arrayBuffer()));
	return memorySource(files);
}

async function smoke(step: "build" | "reopen" | "corrupt", query: string) {
	if (step === "corrupt") await set("index.db", new TextEncoder().encode("not a database"), store);
	const index = await open();
	const report = step === "reopen" ? undefined : await index.sync(await sessions());
	const saved = await index.save();
	const found = index.search({ query });
	const result = {
		engine: index.engine.sqliteVersion,
		warnings: report?.warnings ?? [],
		added: report?.added ?? 0,
		saved,
		sessions: index.stats().sessions,
		results: found.results.map((r) => [r.sessionId, r.snippet]),
	};
	index.close();
	return result;
}

(globalThis as { lookbackSmoke?: typeof smoke }).lookbackSmoke = smoke;
