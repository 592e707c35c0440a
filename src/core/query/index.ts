/** A query as data: parsed from user text, filters typed inline split off, compiled to FTS5, expanded against the vocabulary. */

export { type InlineFilters, type SplitQuery, splitInlineFilters } from "./inline-filters.js";
export { type ParsedQuery, parseQuery, type QueryNode } from "./parser.js";
export { GONE_FILTERS, type GoneFilter, SCOPES, type Scope, type SessionFilter } from "./session-filter.js";
