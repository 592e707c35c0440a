/** A query as data: parsed from user text, filters typed inline split off, compiled to FTS5, expanded against the vocabulary. */

export { parseQuery, type ParsedQuery, type QueryNode } from "./parser.js";
export { splitInlineFilters, type InlineFilters, type SplitQuery } from "./inline-filters.js";
export { SCOPES, type Scope, type SessionFilter } from "./session-filter.js";
