/** The projects with their counts; a click filters by project. */

import type { ProjectCount } from "../../../src/core/index.js";
import { plural } from "./format.js";

export function ProjectList({ projects, onPick }: { projects: ProjectCount[]; onPick(project: string): void }) {
	return (
		<ul class="projects">
			{projects.map((p) => (
				<li key={p.project}>
					<button type="button" class="link" onClick={() => onPick(p.project)}>
						{p.project || "(no project)"}
					</button>{" "}
					<span class="facts">
						{plural(p.sessions, "session")} · {plural(p.messages, "message")}
					</span>
				</li>
			))}
		</ul>
	);
}
