/** The query box and its filters; every change goes to the URL. */

import type { RefObject } from "preact";
import { AGENT_KINDS } from "../../../src/core/index.js";
import type { ViewState } from "../view-state.js";

interface Props {
	state: ViewState;
	input: RefObject<HTMLInputElement | null>;
	onChange(patch: Partial<ViewState>): void;
}

export function SearchBar({ state, input, onChange }: Props) {
	const field = (key: "project" | "since" | "until", placeholder: string) => (
		<input
			class={`filter ${key}`}
			name={key}
			type="text"
			placeholder={placeholder}
			title={placeholder}
			value={state[key]}
			onInput={(e) => onChange({ [key]: e.currentTarget.value })}
		/>
	);
	return (
		<form class="search" aria-label="search sessions" onSubmit={(e) => e.preventDefault()}>
			<input
				ref={input}
				id="query"
				type="text"
				autocomplete="off"
				spellcheck={false}
				placeholder='search every session: words, "a phrase", OR, -word, prefix*   ( / )'
				value={state.q}
				onInput={(e) => onChange({ q: e.currentTarget.value })}
			/>
			<div class="filters">
				{field("project", "project")}
				<select name="agent" value={state.agent} onChange={(e) => onChange({ agent: e.currentTarget.value as ViewState["agent"] })}>
					<option value="">any agent</option>
					{AGENT_KINDS.map((a) => (
						<option value={a}>{a}</option>
					))}
				</select>
				<select name="role" value={state.role} onChange={(e) => onChange({ role: e.currentTarget.value as ViewState["role"] })}>
					<option value="">any role</option>
					{["user", "assistant", "tool", "summary", "meta"].map((r) => (
						<option value={r}>{r}</option>
					))}
				</select>
				<select
					name="branch"
					title="branch state of the hit"
					value={state.branch}
					onChange={(e) => onChange({ branch: e.currentTarget.value as ViewState["branch"] })}
				>
					<option value="">any branch</option>
					<option value="active">active branch</option>
					<option value="compacted">compacted stretch</option>
					<option value="abandoned">abandoned branch</option>
				</select>
				<select
					name="gone"
					title="sessions whose file the agent removed, kept in lookback's archive"
					value={state.gone}
					onChange={(e) => onChange({ gone: e.currentTarget.value as ViewState["gone"] })}
				>
					<option value="">with gone sessions</option>
					<option value="only">only gone sessions</option>
					<option value="exclude">without gone sessions</option>
				</select>
				{field("since", "since (date or 2w)")}
				{field("until", "until (date)")}
			</div>
		</form>
	);
}
