/** Sessions as a whole: resolve a reference, read a branch or a window of it, browse recent sessions, count activity. */

export { type ActivityDay, activityByDay, type ProjectCount, projectCounts } from "./activity.js";
export { type FileProblem, fileProblems } from "./file-problems.js";
export { projectName } from "./project.js";
export type { SessionRow, SessionSummary } from "./session-rows.js";
export type { LinkedSession, SessionStructure, SideBranch } from "./session-structure.js";
export { readTree, type SessionTree, type TreeOptions, type WholeMessage } from "./session-tree.js";
export {
	type BrowseOptions,
	browseSessions,
	latestSummary,
	type MatchOptions,
	matchingSessions,
	type ReadOptions,
	readSession,
	resolveSession,
	type SessionMessage,
	type SessionView,
} from "./sessions.js";
