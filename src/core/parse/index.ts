/** Session files → entries: where files come from, the lenient JSONL reader, the shape every agent's format is read into (each agent's own in src/agents/), branches, and an entry's searchable text. */

export { AGENT_KINDS, AGENTS, type AgentKind, agentFacts, agentLabels, isAgentKind } from "../../agents/registry.js";
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
