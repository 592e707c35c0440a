/**
 * What the page asks its worker to open, from the page's URL: the index beside the page, read as `?load=` says
 * (paged or whole; else by its size), kept as `?store=` says when none is served.
 */

import type { Calls } from "./protocol.js";

export const INDEX_URL = "index.db";
const params = new URLSearchParams(location.search);
const load = params.get("load");
export const mode = load === "paged" || load === "whole" ? load : undefined;
/** `?team=URL`: a team's bucket (an HTTPS address that allows this page by CORS, or `lookback serve --remote`'s `/team`). */
const teamUrl = params.get("team") ?? undefined;
/** `?store=indexeddb`: keep a no-server index in IndexedDB even where OPFS could hold it. */
export const store = params.get("store") === "indexeddb" ? "indexeddb" : undefined;

/** Whether this browser keeps data for the page: no IndexedDB, or one that refuses to open (private modes), means no. */
async function canKeep(): Promise<boolean> {
	if (typeof indexedDB === "undefined") return false;
	try {
		await new Promise<void>((resolve, reject) => {
			const request = indexedDB.open("lookback-probe");
			request.onsuccess = () => {
				request.result.close();
				resolve();
			};
			request.onerror = () => reject(request.error);
		});
		return true;
	} catch {
		return false;
	}
}

export async function openRequest(): Promise<Parameters<Calls["open"]>[0]> {
	return { url: INDEX_URL, mode, keep: await canKeep(), store, ...(teamUrl ? { team: teamUrl } : {}) };
}
