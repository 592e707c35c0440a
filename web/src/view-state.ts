/** What the page shows, as named by its URL: reloading or sharing the URL shows the same view. */

import { AGENT_KINDS, type AgentKind, type BranchState, type Role } from "../../src/core/index.js";

export interface ViewState {
	q: string;
	project: string;
	agent: "" | AgentKind;
	role: "" | Role;
	since: string;
	until: string;
	/** Only hits in this branch state: active (in context), compacted, abandoned. */
	branch: "" | BranchState;
	/** The session open in the reader, and the entry to show in it. */
	session: string;
	entry: string;
	/** "usage": the dashboard in place of the list; what its chart stacks (models, or "agent") and shows (cost, or "tokens"). */
	view: "" | "usage";
	stack: "" | "agent";
	metric: "" | "tokens";
}

const KEYS = ["q", "project", "agent", "role", "since", "until", "branch", "session", "entry", "view", "stack", "metric"] as const;

export function readViewState(search: string): ViewState {
	const params = new URLSearchParams(search);
	const state = Object.fromEntries(KEYS.map((k) => [k, params.get(k) ?? ""])) as unknown as ViewState;
	if (state.agent !== "" && !(AGENT_KINDS as readonly string[]).includes(state.agent)) state.agent = "";
	if (!["", "user", "assistant", "tool", "summary", "meta"].includes(state.role)) state.role = "";
	if (!["", "active", "compacted", "abandoned"].includes(state.branch)) state.branch = "";
	if (state.view !== "usage") state.view = "";
	if (state.stack !== "agent") state.stack = "";
	if (state.metric !== "tokens") state.metric = "";
	return state;
}

/** The URL of a view; `load` and `store` keep a forced way of loading ("paged" or "whole") and keeping ("indexeddb") the index across links. */
export function viewUrl(state: ViewState, load?: string, store?: string): string {
	const params = new URLSearchParams();
	for (const k of KEYS) if (state[k]) params.set(k, state[k]);
	if (load) params.set("load", load);
	if (store) params.set("store", store);
	const query = params.toString();
	return query ? `?${query}` : location.pathname;
}
