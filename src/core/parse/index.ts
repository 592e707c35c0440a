/** Session files → entries: where files come from (each agent's folder layout), the lenient JSONL reader, Pi's and omp's formats, branches, and an entry's searchable text. */

export { claudeProject, isClaudeProject, walkClaude } from "../../agents/claude/layout.js";
export { codexArchived, isRollout, rollouts, walkCodex } from "../../agents/codex/layout.js";
export { geminiProject, geminiProjects, isGeminiChats, walkGemini } from "../../agents/gemini/layout.js";
export { type OmpMetadata, readOmpMetadata } from "../../agents/omp/metadata.js";
export { isOpencodeDbName } from "../../agents/opencode/layout.js";
export type {
	ArchivedFile,
	ArchiveState,
	Forgotten,
	KeepResult,
	KeptBytes,
	KeptFacts,
	SessionArchive,
} from "./archive.js";
export { keptCurrent } from "./archive.js";
export { BRANCH_STATES, type BranchState, branchStates, branchThrough, contextStart, pathToRoot, type TreeNode } from "./branch.js";
export { ROLES, type Role } from "./entry-text.js";
export { type Found, folderOf, inFolder, isBesideFile, type LayoutWalk, type Listing } from "./layout.js";
export {
	AGENT_KINDS,
	type AgentKind,
	isAgentKind,
	isTmpSessionFolder,
	memorySource,
	type SessionFileInfo,
	type SessionKind,
	type SessionSource,
	type SkippedFile,
	type SkipReason,
	type SyncWarning,
	type WalkedFolders,
	type WalkResult,
} from "./source.js";
