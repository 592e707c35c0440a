/** Discovery: a query and filters → sessions ranked by their best entry, run in tiers and fallbacks, grouped and shaped into hits. */

export { search, type ReadRange, type SearchHit, type SearchRequest, type SearchResponse } from "./search.js";
export { CANDIDATE_FIELDS } from "./run.js";
