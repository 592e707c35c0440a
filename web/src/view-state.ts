/** What the page shows, as named by its URL: reloading or sharing the URL shows the same view. */

import { AGENT_KINDS, type AgentKind, type BranchState, GONE_FILTERS, type GoneFilter, type Role } from "../../src/core/index.js";

export interface ViewState {
	q: string;
	project: string;
	agent: "" | AgentKind;
	role: "" | Role;
	since: string;
	until: string;
	/** Only hits in this branch state: active (in context), compacted, abandoned. */
	branch: "" | BranchState;
	/** Sessions whose file is gone (kept in lookback's archive): only those, or none. */
	gone: "" | GoneFilter;
	/** The session open in the reader, and the entry to show in it. */
	session: string;
	entry: string;
	/** "usage": the dashboard in place of the list; what its chart stacks (models, or "agent") and shows (cost, or "tokens"). */
	view: "" | "usage";
	stack: "" | "agent";
	metric: "" | "tokens";
	/** Over a team: only this machine's sessions. */
	machine: string;
}

const KEYS = [
	"q",
	"project",
	"agent",
	"role",
	"since",
	"until",
	"branch",
	"gone",
	"session",
	"entry",
	"view",
	"stack",
	"metric",
	"machine",
] as const;

export function readViewState(search: string): ViewState {
	const params = new URLSearchParams(search);
	const state = Object.fromEntries(KEYS.map((k) => [k, params.get(k) ?? ""])) as unknown as ViewState;
	if (state.agent !== "" && !(AGENT_KINDS as readonly string[]).includes(state.agent)) state.agent = "";
	if (!["", "user", "assistant", "tool", "summary", "meta"].includes(state.role)) state.role = "";
	if (!["", "active", "compacted", "abandoned"].includes(state.branch)) state.branch = "";
	if (state.gone !== "" && !(GONE_FILTERS as readonly string[]).includes(state.gone)) state.gone = "";
	if (state.view !== "usage") state.view = "";
	if (state.stack !== "agent") state.stack = "";
	if (state.metric !== "tokens") state.metric = "";
	return state;
}

/** The URL of a view; `load` and `store` keep a forced way of loading ("paged" or "whole") and keeping ("indexeddb") the index across links. */
export function viewUrl(state: ViewState, load?: string, store?: string): string {
	const params = new URLSearchParams();
	for (const k of KEYS) if (state[k]) params.set(k, state[k]);
	// A team's page stays on its team across links.
	const team = new URLSearchParams(location.search).get("team");
	if (team) params.set("team", team);
	if (load) params.set("load", load);
	if (store) params.set("store", store);
	const query = params.toString();
	return query ? `?${query}` : location.pathname;
}
