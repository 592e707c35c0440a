/** Discovery: a query and filters → sessions ranked by their best entry, run in tiers and fallbacks, grouped and shaped into hits. */

export { type InSessionMatch, type InSessionRequest, type InSessionResponse, searchInSession } from "./in-session.js";
export { CANDIDATE_FIELDS, CANDIDATE_INDEX } from "./run.js";
export { type ReadRange, type SearchHit, type SearchRequest, type SearchResponse, search } from "./search.js";
export { type FilterName, sessionsThatMatch, type WhyEmpty } from "./why-empty.js";
