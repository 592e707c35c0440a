/** Messages between the page and the worker that holds the database. */

import type {
	ActivityDay,
	BrowseOptions,
	Dashboard,
	DashboardRequest,
	EngineIoCounters,
	ExportBranchChoice,
	ExportFormat,
	ProjectCount,
	ReadOptions,
	SearchRequest,
	SearchResponse,
	SessionSummary,
	SessionView,
} from "../../src/core/index.js";

/** Which index the worker has open, and how it reads it. */
export interface IndexInfo {
	/**
	 * "paged": read by HTTP ranges; "whole": downloaded whole (kept in IndexedDB); "offline": the copy kept from an
	 * earlier visit; "local": no index served, the one this browser builds from picked session files.
	 */
	mode: "paged" | "whole" | "offline" | "local" | "team";
	sessions: number;
	messages: number;
	/** Size of the served file. */
	bytes: number;
	lastSync?: string;
	etag: string | null;
	/** When the copy in use was fetched (offline mode). */
	fetchedAt?: string;
	/** Local mode: no server answered (the page came from this browser's copy). */
	unreachable?: boolean;
	/** Local mode: where the index is kept across visits ("OPFS": the origin private file system, opened in place; "IndexedDB": a snapshot). */
	keptIn?: string;
	/** Local mode: why the index is not kept across visits, when it is not. */
	notKept?: string;
	/** Local mode: the folders a rescan reads again by itself (File System Access API), the page asking leave first. */
	folders?: FileSystemDirectoryHandle[];
	/** Team mode: the bucket, its machines (each a shard), and the shards that could not be opened. */
	team?: { url: string; shards: { name: string; sessions: number; publishedAt: string }[]; problems: { shard: string; error: string }[] };
}

/** Team mode: the machine the page filters by ("" or absent: every machine). */
type OnMachine = { shard?: string };

/** Session files to index in the browser: picked files, folder handles, or the folders picked before. */
export interface ScanRequest {
	files?: { path: string; file: File }[];
	folders?: FileSystemDirectoryHandle[];
	rescanFolders?: boolean;
}

/** What a scan did: counts of files (a test asserts that a rescan parsed only changed ones) and the files named for a message. */
export interface ScanReport {
	seen: number;
	parsed: number;
	added: number;
	grown: number;
	rewritten: number;
	unchanged: number;
	bytesRead: number;
	/** Files left out, with the reason. */
	skipped: string[];
	/** OpenCode's databases among the files: this page cannot read them (the command line does). */
	opencode: string[];
	/** Files read with something wrong in them: the others are indexed all the same. */
	problems: string[];
	warnings: string[];
	info: IndexInfo;
}

/** Sent by the worker while it indexes (not a reply). */
export interface ProgressMessage {
	progress: { done: number; total: number; bytesRead: number; path: string };
}

interface Transfer {
	requests: number;
	bytes: number;
	/** Served by ranges: what was fetched ahead in the background (not in requests and bytes), and whether that is done. */
	prefetch?: { requests: number; bytes: number; done: boolean };
	/** No-server mode with the index in OPFS: the reads and writes of the index file (counted by the engine's filesystem), and its size. */
	file?: EngineIoCounters & { size: number };
}

export interface Calls {
	/** The served index; when none is served, the local one (`keep` as for openLocal). */
	/** With `team`: a team's bucket (its URL, absolute or beside the page), every shard read by ranges. */
	open(args: { url: string; mode?: "paged" | "whole"; keep?: boolean; store?: "indexeddb"; team?: string }): IndexInfo;
	search(args: Omit<SearchRequest, "exclude"> & OnMachine): SearchResponse;
	browse(args: BrowseOptions & OnMachine): SessionSummary[];
	read(args: { ref: string } & ReadOptions & OnMachine): SessionView;
	/** A session exported (redacted), for the page to download: `redacted` counts the secrets replaced. */
	export(args: { ref: string; format: ExportFormat; branch: ExportBranchChoice }): {
		content: string;
		fileName: string;
		mimeType: string;
		redacted: number;
	};
	landing(args: OnMachine): { activity: ActivityDay[]; projects: ProjectCount[] };
	/** The usage dashboard, summed in the worker (the page gets a few hundred numbers). */
	dashboard(args: DashboardRequest & OnMachine): Dashboard;
	transfer(args: Record<string, never>): Transfer;
	/** Served by ranges: start fetching ahead what nearly every query reads (the page asks once its first list is painted). */
	prefetch(args: Record<string, never>): void;
	/** No-server mode: the index this browser keeps (`keep` false: the page found no IndexedDB; `store` "indexeddb": not in OPFS). */
	openLocal(args: { keep: boolean; store?: "indexeddb" }): IndexInfo;
	scan(args: ScanRequest): ScanReport;
	importIndex(args: { file: File }): IndexInfo;
}

export type CallName = keyof Calls;
export interface CallMessage<K extends CallName = CallName> {
	id: number;
	call: K;
	args: Parameters<Calls[K]>[0];
}
export type ReplyMessage = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string; code?: string };
