/** Session files → entries: where files come from, the lenient JSONL reader, Pi's and omp's formats, branches, and an entry's searchable text. */

export {
	isTmpSessionFolder,
	memorySource,
	type AgentKind,
	type SessionFileInfo,
	type SessionKind,
	type SessionSource,
	type SkippedFile,
	type SkipReason,
	type SyncWarning,
	type WalkResult,
} from "./source.js";
export { branchStates, branchThrough, contextStart, pathToRoot, type BranchState, type TreeNode } from "./branch.js";
export { ROLES, type Role } from "./entry-text.js";
export { readOmpMetadata, type OmpMetadata } from "./omp-metadata.js";
