/** Sessions as a whole: resolve a reference, read a branch or a window of it, browse recent sessions, count activity. */

export { browseSessions, latestSummary, readSession, resolveSession, type BrowseOptions, type ReadOptions, type SessionMessage, type SessionView } from "./sessions.js";
export type { SessionRow, SessionSummary } from "./session-rows.js";
export { activityByDay, projectCounts, type ActivityDay, type ProjectCount } from "./activity.js";
export { projectName } from "./project.js";
export { fileProblems, type FileProblem } from "./file-problems.js";
export type { LinkedSession, SessionStructure, SideBranch } from "./session-structure.js";
