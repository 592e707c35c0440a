/**
 * A search as the page lists it: the first page at once (the size the command line shows, so the two rank it
 * alike), then the rest up to the list's size while the person reads. Over HTTP ranges every hit shown costs a
 * request for its text, so a first page of 10 answers a cold query in a fraction of the requests of 100.
 */

import { DEFAULTS, type SearchRequest, type SearchResponse } from "../../src/core/index.js";

/** Sessions of the first page. */
export const FIRST_PAGE = DEFAULTS.searchLimit;

/**
 * Run `request` through `search` for the first page, `show` it, then for up to `limit` sessions and `show`
 * the first page followed by the sessions the wider search adds (the first page keeps its order). `show`
 * returns false once the list is no longer wanted (the person typed on): no wider search is run then.
 */
export async function widenedSearch(
	search: (request: Omit<SearchRequest, "exclude">) => Promise<SearchResponse>,
	request: Omit<SearchRequest, "exclude" | "limit">,
	limit: number,
	show: (response: SearchResponse) => boolean,
): Promise<void> {
	const first = await search({ ...request, limit: Math.min(FIRST_PAGE, limit) });
	if (!show(first) || first.results.length < Math.min(FIRST_PAGE, limit) || limit <= FIRST_PAGE) return;
	const wider = await search({ ...request, limit });
	const shown = new Set(first.results.map((hit) => hit.path));
	show({ ...wider, results: [...first.results, ...wider.results.filter((hit) => !shown.has(hit.path))].slice(0, limit) });
}
