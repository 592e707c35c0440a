/**
 * Filters typed inside a query line, as people type them in a search box: `project:web since:3d role:user,assistant
 * agent:claude`.
 * They are split from the words the query language searches; quoted text is never read as a filter.
 */

import { AGENT_KINDS, type AgentKind, isAgentKind } from "../../agents/registry.js";
import { ROLES, type Role } from "../parse/entry-text.js";

export interface InlineFilters {
	project?: string;
	since?: string;
	until?: string;
	role?: Role[];
	agent?: AgentKind;
}

export interface SplitQuery {
	/** What is left for the query language. */
	query: string;
	filters: InlineFilters;
	/** A filter value that cannot be used (an unknown role or agent). */
	error?: string;
}

const FILTER = /^(project|since|until|role|agent):(.*)$/i;

/** Whitespace-separated tokens, a quoted run (with its spaces) kept inside one token. */
function tokens(line: string): string[] {
	const out: string[] = [];
	let current = "";
	let quoted = false;
	for (const c of line) {
		if (c === '"') quoted = !quoted;
		if (!quoted && /\s/.test(c)) {
			if (current) out.push(current);
			current = "";
		} else current += c;
	}
	if (current) out.push(current);
	return out;
}

export function splitInlineFilters(line: string): SplitQuery {
	const filters: InlineFilters = {};
	const words: string[] = [];
	let error: string | undefined;
	for (const token of tokens(line)) {
		const m = FILTER.exec(token);
		if (!m) {
			words.push(token);
			continue;
		}
		const key = m[1].toLowerCase() as keyof InlineFilters;
		// A filter still being typed (`project:`) filters nothing yet.
		const value = m[2];
		if (!value) continue;
		if (key === "agent") {
			const agent = value.toLowerCase();
			if (isAgentKind(agent)) filters.agent = agent;
			else error = `unknown agent ${value} (agents: ${AGENT_KINDS.join(", ")})`;
			continue;
		}
		if (key !== "role") {
			filters[key] = value;
			continue;
		}
		const roles = value.toLowerCase().split(",").filter(Boolean);
		const unknown = roles.filter((r) => !(ROLES as readonly string[]).includes(r));
		if (unknown.length > 0) error = `unknown role ${unknown.join(", ")} (roles: ${ROLES.join(", ")})`;
		else filters.role = roles as Role[];
	}
	return { query: words.join(" "), filters, ...(error ? { error } : {}) };
}
