/**
 * A query with up to three other phrasings (an agent's paraphrases or translations): each phrasing searched on
 * its own, every tier and fallback included, and the session lists fused by reciprocal rank (RRF: a session's
 * score is the sum over lists of w / (k + its rank)), so a session found high by any phrasing, or by several,
 * comes first. Each hit says which phrasings found it.
 */

import { DEFAULTS } from "../defaults.js";
import type { Database } from "../store/engine.js";
import type { SearchHit, SearchRequest, SearchResponse } from "./search.js";

/** RRF's constant: how much the first ranks weigh over later ones (60 is the value of the method's authors). */
const RRF_K = 60;

/** The phrasings of a request: the query, then its distinct variants, at most `DEFAULTS.maxQueryVariants`. */
export function phrasingsOf(request: Pick<SearchRequest, "query" | "variants">): string[] {
	const query = request.query.trim();
	const variants = (request.variants ?? []).map((q) => q.trim());
	const distinct = variants.filter((q, i) => q.length > 0 && q !== query && variants.indexOf(q) === i);
	return [query, ...distinct.slice(0, DEFAULTS.maxQueryVariants)];
}

/**
 * How much one phrasing's list counts: a list that had every word of its phrasing counts whole; one that fell back
 * to ranking entries by some of the words (a question no entry answers in full) counts half, so that a phrasing
 * found in full beats a loose match of another at the same rank.
 */
function weightOf(response: SearchResponse): number {
	return response.fallbacks?.some((f) => f === "words" || f === "cjk-pairs") ? 0.5 : 1;
}

/** Search every phrasing with `run` and fuse the results. */
export function fusedSearch(
	db: Database,
	request: SearchRequest,
	run: (db: Database, request: SearchRequest) => SearchResponse,
): SearchResponse {
	const phrasings = phrasingsOf(request);
	const limit = Math.max(1, Math.min(request.limit ?? DEFAULTS.searchLimit, DEFAULTS.searchMaxLimit));
	const responses = phrasings.map((query) => ({ query, response: run(db, { ...request, query, variants: undefined }) }));
	const fused = new Map<string, { hit: SearchHit; score: number; best: number; foundBy: string[] }>();
	for (const { query, response } of responses) {
		const weight = weightOf(response);
		response.results.forEach((hit, rank) => {
			const seen = fused.get(hit.path);
			const score = weight / (RRF_K + rank + 1);
			if (!seen) fused.set(hit.path, { hit, score, best: rank, foundBy: [query] });
			else {
				seen.score += score;
				seen.foundBy.push(query);
				// The snippet and entry of the phrasing that ranked the session highest.
				if (rank < seen.best) Object.assign(seen, { hit, best: rank });
			}
		});
	}
	const ranked = [...fused.values()].sort((a, b) => b.score - a.score || a.best - b.best);
	const first = responses[0].response;
	const notices = responses.map((r) => (r.response.notice ? `${r.query}: ${r.response.notice}` : "")).filter(Boolean);
	const errors = responses.filter((r) => r.response.error);
	return {
		query: request.query,
		variants: phrasings.slice(1),
		results: ranked.slice(0, limit).map((f) => ({ ...f.hit, foundBy: f.foundBy })),
		totalSessions: Math.max(fused.size, ...responses.map((r) => r.response.totalSessions)),
		...(first.correctedQuery ? { correctedQuery: first.correctedQuery } : {}),
		...(notices.length > 0 ? { notice: notices.join("; ") } : {}),
		...(errors.length === responses.length ? { error: errors[0].response.error } : {}),
	};
}
