/** Messages between the page and the worker that holds the database. */

import type { ActivityDay, BrowseOptions, ProjectCount, ReadOptions, SearchRequest, SearchResponse, SessionSummary, SessionView } from "../../src/core/index.js";

/** Which index the worker has open, and how it reads it. */
export interface IndexInfo {
	/** "paged": read by HTTP ranges; "whole": downloaded whole (kept in IndexedDB); "offline": the copy kept from an earlier visit. */
	mode: "paged" | "whole" | "offline";
	sessions: number;
	messages: number;
	/** Size of the served file. */
	bytes: number;
	lastSync?: string;
	etag: string | null;
	/** When the copy in use was fetched (offline mode). */
	fetchedAt?: string;
}

export interface Transfer {
	requests: number;
	bytes: number;
}

export interface Calls {
	open(args: { url: string; mode?: "paged" | "whole" }): IndexInfo;
	search(args: Omit<SearchRequest, "exclude">): SearchResponse;
	browse(args: BrowseOptions): SessionSummary[];
	read(args: { ref: string } & ReadOptions): SessionView;
	landing(args: Record<string, never>): { activity: ActivityDay[]; projects: ProjectCount[] };
	transfer(args: Record<string, never>): Transfer;
}

export type CallName = keyof Calls;
export interface CallMessage<K extends CallName = CallName> {
	id: number;
	call: K;
	args: Parameters<Calls[K]>[0];
}
export type ReplyMessage = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string; code?: string };
