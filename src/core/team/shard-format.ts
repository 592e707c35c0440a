/**
 * A team's bucket, as objects under its prefix:
 *
 *   lookback-team.json                 the names of its shards (kept convergent by every publish, publish.ts)
 *   shards/<name>/manifest.json        one shard: its pages, where each lies, what to read first
 *   shards/<name>/packs/<sha256>.pack  pages of the shard's SQLite file, named by their content, never rewritten
 *
 * A shard is a read-optimised lookback index (src/node/read-snapshot.ts: 64 KiB pages, laid out for ranges), redacted,
 * cut into its pages. A manifest maps runs of pages (extents) to runs of pages in packs: a publish uploads only
 * pages no pack of the last publish holds, in new packs, then switches the one manifest (README, "A team's history"). Read by the node layer
 * (src/node/team) and the viewer (web/src/team-index.ts) alike.
 */

import { LookbackError } from "../errors.js";

/** Bytes of the file [start, end) each (src/node/snapshot-layout.ts). */
type ByteRanges = [number, number][];

export const TEAM_KEY = "lookback-team.json";
export const manifestKey = (name: string) => `shards/${name}/manifest.json`;
export const packKey = (name: string, pack: string) => `shards/${name}/${pack}`;

/** [first page (0-based), pages, pack (index into `packs`), first page in that pack]. */
export type Extent = [number, number, number, number];

export interface ShardManifest {
	format: "lookback-shard";
	version: 1;
	name: string;
	/** A random id of the machine that publishes this shard (never its host name): a second machine under the same name is refused. */
	publisher: string;
	/** Counts the shard's publishes. */
	generation: number;
	publishedAt: string;
	/** The SQLite file: its page size and its size in bytes. */
	pageBytes: number;
	size: number;
	/** Pack objects, relative to the shard's folder (`packs/<sha256>.pack`). */
	packs: string[];
	extents: Extent[];
	/** Byte ranges of the file to read before opening it, and worth fetching ahead (snapshot-layout.ts). */
	open: ByteRanges;
	prefetch: ByteRanges;
	sessions: number;
}

export interface TeamListing {
	format: "lookback-team";
	version: 1;
	shards: string[];
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function checkShardName(name: string | undefined): string {
	if (!name || !NAME.test(name))
		throw new LookbackError("bad-argument", `--as needs a shard name of letters, digits, ".", "_" or "-" (up to 64), not "${name ?? ""}"`);
	return name;
}

const decoder = new TextDecoder();

function parsedJson(bytes: Uint8Array, what: string): unknown {
	try {
		return JSON.parse(decoder.decode(bytes));
	} catch {
		throw new LookbackError("remote", `${what} is not JSON (damaged shard)`);
	}
}

/** A manifest read back, checked enough that a damaged one is named rather than read wrongly. */
export function parseManifest(bytes: Uint8Array, what: string): ShardManifest {
	const m = parsedJson(bytes, what) as Partial<ShardManifest>;
	const ok =
		m.format === "lookback-shard" &&
		m.version === 1 &&
		typeof m.name === "string" &&
		typeof m.pageBytes === "number" &&
		typeof m.size === "number" &&
		Array.isArray(m.packs) &&
		Array.isArray(m.extents) &&
		m.extents.every((e) => Array.isArray(e) && e.length === 4 && e.every(Number.isInteger) && e[2] >= 0 && e[2] < (m.packs?.length ?? 0));
	if (!ok) throw new LookbackError("remote", `${what} is not a lookback shard manifest (damaged shard, or a newer lookback's)`);
	const pages = (m.extents ?? []).reduce((n, e) => n + e[1], 0);
	if (pages * (m.pageBytes ?? 0) !== m.size)
		throw new LookbackError("remote", `${what} names ${pages} pages for ${m.size} bytes (damaged shard)`);
	return m as ShardManifest;
}

export function parseTeam(bytes: Uint8Array, what: string): TeamListing {
	const t = parsedJson(bytes, what) as Partial<TeamListing>;
	if (t.format !== "lookback-team" || !Array.isArray(t.shards) || !t.shards.every((s) => typeof s === "string" && NAME.test(s)))
		throw new LookbackError("remote", `${what} is not a lookback team listing`);
	return t as TeamListing;
}

/** Where each page of a shard's file lies: pack and byte offset, found by a binary search over the extents. */
export class PageMap {
	private readonly starts: number[];
	constructor(readonly manifest: ShardManifest) {
		this.starts = manifest.extents.map((e) => e[0]);
	}
	/** The extent holding `page`, as [its index, pack key, byte offset of the page in the pack, pages left in the extent from it]. */
	locate(page: number): { pack: string; offset: number; run: number } {
		let lo = 0;
		let hi = this.starts.length - 1;
		while (lo < hi) {
			const mid = (lo + hi + 1) >> 1;
			if (this.starts[mid] <= page) lo = mid;
			else hi = mid - 1;
		}
		const [first, count, pack, inPack] = this.manifest.extents[lo] ?? [0, 0, 0, 0];
		if (page < first || page >= first + count)
			throw new LookbackError("remote", `page ${page} is in no extent of the manifest (damaged shard)`);
		return { pack: this.manifest.packs[pack], offset: (inPack + page - first) * this.manifest.pageBytes, run: first + count - page };
	}
}
