/** Over a team: which machine's sessions the page shows (every one, or one), and the shards that could not be opened. */

import type { IndexInfo } from "../protocol.js";

interface Props {
	team: NonNullable<IndexInfo["team"]>;
	machine: string;
	onChange(machine: string): void;
}

export function MachineFilter({ team, machine, onChange }: Props) {
	return (
		<div class="machines">
			<label>
				machine{" "}
				<select id="machine" value={machine} onChange={(e) => onChange((e.target as HTMLSelectElement).value)}>
					<option value="">every machine ({team.shards.length})</option>
					{team.shards.map((s) => (
						<option key={s.name} value={s.name}>
							{s.name} ({s.sessions})
						</option>
					))}
				</select>
			</label>
			{team.problems.map((p) => (
				<span key={p.shard} class="changed" role="status">
					shard {p.shard} could not be opened: {p.error}
				</span>
			))}
		</div>
	);
}
