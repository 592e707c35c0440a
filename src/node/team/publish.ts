/**
 * `lookback publish <place> --as NAME`: this machine's history as one shard of a team's bucket (shard-format.ts).
 *
 * 1. The shard is brought up to date on this machine (shard-build.ts: redacted, synced in place, laid out anew when
 *    much changed since its last layout).
 * 2. Its pages are hashed; a page that some pack of the last publish holds is not sent again, the others go up in
 *    new packs named by their content (never overwritten, so a reader of the last manifest is never disturbed).
 * 3. Only then the manifest is switched (one PUT, atomic in S3 and as a rename in a folder): a publish killed before
 *    it leaves the last good shard as it was; one killed after it is taken up by the next (`pending.json`).
 * 4. The team listing is made to name the shard (see `listShard`), then packs no manifest names any more are removed.
 *
 * Heavy (a sync, hashing the file): a one-shot command's work, never a long-lived host's.
 */

import { createHash, randomBytes } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { errorMessage, LookbackError } from "../../core/errors.js";
import {
	checkShardName,
	type Extent,
	manifestKey,
	packKey,
	parseManifest,
	parseTeam,
	type ShardManifest,
	TEAM_KEY,
	type TeamListing,
} from "../../core/team/shard-format.js";
import type { Env } from "../home.js";
import type { NodeIndex } from "../open.js";
import type { ByteRanges } from "../snapshot-layout.js";
import { updateShard } from "./shard-build.js";
import { type ObjectStore, storeOf } from "./store.js";

/** Packs are cut at this size: one PUT each, a few at a time. */
const PACK_BYTES = 32 << 20;
const PARALLEL_PUTS = 4;
/** A shard is laid out anew once the pages sent since its last layout reach this share of its size, or its packs this many. */
const RELAYOUT_SHARE = 0.5;
const RELAYOUT_PACKS = 24;

export interface PublishReport {
	name: string;
	remote: string;
	generation: number;
	sessions: number;
	shardBytes: number;
	/** Bytes and objects sent this time (packs, the manifest, the listing). */
	uploadedBytes: number;
	uploadedObjects: number;
	newPages: number;
	reusedPages: number;
	laidOut: boolean;
	removedPacks: number;
	seconds: number;
}

/** What this machine keeps of its last publish to one place under one name. */
interface PublishState {
	remote: string;
	generation: number;
	/** Each page's hash, in file order, and the manifest's extents and packs that place them. */
	hashes: string[];
	packs: string[];
	extents: Extent[];
	open: ByteRanges;
	prefetch: ByteRanges;
	/** Bytes sent since the shard was last laid out, and its size then. */
	sentSinceLayout: number;
}

const encoder = new TextEncoder();
const json = (value: unknown) => encoder.encode(`${JSON.stringify(value, null, 1)}\n`);

function readJson<T>(path: string): T | undefined {
	try {
		return JSON.parse(readFileSync(path, "utf8")) as T;
	} catch {
		return undefined;
	}
}

function writeJsonAtomic(path: string, value: unknown): void {
	const temp = `${path}.${process.pid}.tmp`;
	writeFileSync(temp, json(value), { mode: 0o600 });
	renameSync(temp, path);
}

/** This machine's publisher id: random, made once, never its host name. */
function publisherId(publishDir: string): string {
	const path = join(publishDir, "publisher-id");
	try {
		const id = readFileSync(path, "utf8").trim();
		if (/^[0-9a-f]{16}$/.test(id)) return id;
	} catch {
		// made below
	}
	mkdirSync(publishDir, { recursive: true, mode: 0o700 });
	const id = randomBytes(8).toString("hex");
	writeFileSync(path, `${id}\n`, { mode: 0o600 });
	return id;
}

/** One publish of a name at a time on this machine: a lock file naming its pid, taken over when that process is gone. */
function takeLock(dir: string): () => void {
	const path = join(dir, "publish.lock");
	for (let attempt = 0; attempt < 2; attempt++) {
		try {
			const fd = openSync(path, "wx", 0o600);
			writeFileSync(fd, `${process.pid}\n`);
			closeSync(fd);
			return () => rmSync(path, { force: true });
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
			const pid = Number(readFileSync(path, "utf8").trim());
			let alive = false;
			try {
				process.kill(pid, 0);
				alive = pid !== process.pid;
			} catch {
				alive = false;
			}
			if (alive) throw new LookbackError("index-busy", `another publish of this shard is running (pid ${pid})`);
			rmSync(path, { force: true });
		}
	}
	throw new LookbackError("index-busy", "cannot take the publish lock");
}

/** The page size of a SQLite file (its header's bytes 16-17; 1 means 65536). */
function pageSizeOf(path: string): number {
	const fd = openSync(path, "r");
	try {
		const header = new Uint8Array(18);
		readSync(fd, header, 0, 18, 0);
		const size = (header[16] << 8) | header[17];
		return size === 1 ? 65536 : size;
	} finally {
		closeSync(fd);
	}
}

/** Each page's hash (SHA-256, 128 bits), read a few MB at a time. */
function pageHashes(path: string, pageBytes: number): string[] {
	const size = statSync(path).size;
	const fd = openSync(path, "r");
	const hashes: string[] = [];
	const buffer = Buffer.alloc(pageBytes * 64);
	try {
		for (let at = 0; at < size; ) {
			const n = readSync(fd, buffer, 0, Math.min(buffer.length, size - at), at);
			if (n === 0) break;
			for (let p = 0; p < n; p += pageBytes)
				hashes.push(
					createHash("sha256")
						.update(buffer.subarray(p, p + pageBytes))
						.digest("hex")
						.slice(0, 32),
				);
			at += n;
		}
	} finally {
		closeSync(fd);
	}
	return hashes;
}

/** Runs of pages placed in consecutive pages of one pack, as extents. */
function extentsOf(places: [number, number][]): Extent[] {
	const extents: Extent[] = [];
	for (let page = 0; page < places.length; page++) {
		const [pack, at] = places[page];
		const last = extents[extents.length - 1];
		if (last && last[2] === pack && last[0] + last[1] === page && last[3] + last[1] === at) last[1]++;
		else extents.push([page, 1, pack, at]);
	}
	return extents;
}

async function inParallel<T>(items: T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
	const queue = [...items];
	await Promise.all(
		Array.from({ length: Math.min(limit, queue.length) }, async () => {
			for (let item = queue.shift(); item !== undefined; item = queue.shift()) await run(item);
		}),
	);
}

/**
 * Make the team listing name `name`. Every publisher writes its own manifest first, then reads the listing and
 * lists the manifests, and writes the union until a read after its last write shows every manifest it listed: of
 * two machines publishing at once, the one whose check comes last sees both manifests and leaves both named, so
 * none is lost whatever the order of their writes (S3 and a folder both read their own writes at once).
 */
async function listShard(store: ObjectStore, name: string): Promise<number> {
	let writes = 0;
	for (let round = 0; round < 8; round++) {
		const bytes = await store.get(TEAM_KEY);
		// A listing caught half-written (a store whose PUT is not atomic: s3rver writes in place) or damaged is made
		// again from the manifests present, which it only ever names.
		let listed: string[] = [];
		try {
			listed = bytes ? parseTeam(bytes, `${store.describe}/${TEAM_KEY}`).shards : [];
		} catch {
			listed = [];
		}
		const present = (await store.list("shards/"))
			.map((key) => /^shards\/([^/]+)\/manifest\.json$/.exec(key)?.[1])
			.filter((n): n is string => n !== undefined);
		const all = [...new Set([...listed, ...present, name])].sort();
		if (all.length === listed.length && all.every((n) => listed.includes(n))) return writes;
		const listing: TeamListing = { format: "lookback-team", version: 1, shards: all };
		await store.put(TEAM_KEY, json(listing), "application/json");
		writes++;
	}
	return writes;
}

/** Folder of this machine's state for one place and name: beside the index, never in the bucket. */
function stateDir(indexPath: string, remote: string, name: string): string {
	const place = createHash("sha256").update(remote).digest("hex").slice(0, 10);
	return join(dirname(resolve(indexPath)), "publish", `${name}-${place}`);
}

/** A stall the tests use to kill a publish between its packs and its manifest (LOOKBACK_TEST_PUBLISH_STALL=1). */
async function stallForTests(env: Env, log: (line: string) => void): Promise<void> {
	if (env.LOOKBACK_TEST_PUBLISH_STALL !== "1") return;
	log("lookback: (test) packs sent, manifest not yet switched");
	await new Promise<void>(() => setInterval(() => undefined, 1000));
}

export async function publish(
	opened: NodeIndex,
	remote: string,
	asName: string | undefined,
	options: { env?: Env; log?: (line: string) => void } = {},
): Promise<PublishReport> {
	const started = Date.now();
	const env = options.env ?? process.env;
	const log = options.log ?? (() => undefined);
	const name = checkShardName(asName);
	const store = storeOf(remote, env);
	if (!store.writable)
		throw new LookbackError("bad-argument", `${store.describe} is read-only: publish to s3://bucket/prefix or file:///dir`);
	const publishRoot = join(dirname(resolve(opened.indexPath)), "publish");
	const publisher = publisherId(publishRoot);
	const dir = stateDir(opened.indexPath, store.describe, name);
	mkdirSync(dir, { recursive: true, mode: 0o700 });
	const unlock = takeLock(dir);
	try {
		const statePath = join(dir, "published.json");
		const pendingPath = join(dir, "pending.json");
		const remoteBytes = await store.get(manifestKey(name));
		const current = remoteBytes ? parseManifest(remoteBytes, `${store.describe}/${manifestKey(name)}`) : undefined;
		if (current && current.publisher !== publisher)
			throw new LookbackError(
				"bad-argument",
				`the shard "${name}" in ${store.describe} is published by another machine; give this one another name (--as)`,
			);
		let state = readJson<PublishState>(statePath);
		// A publish killed after its manifest switched: its state is the one the bucket has.
		const pending = readJson<PublishState>(pendingPath);
		if (pending && current && pending.generation === current.generation) {
			writeJsonAtomic(statePath, pending);
			state = pending;
		}
		rmSync(pendingPath, { force: true });
		if (state && (!current || state.generation !== current.generation)) state = undefined; // not the bucket's: send every page
		const shardPath = join(dir, "shard.db");
		const size = existsSync(shardPath) ? statSync(shardPath).size : 0;
		const layOut = !state || state.sentSinceLayout > RELAYOUT_SHARE * size || state.packs.length > RELAYOUT_PACKS;
		log(`lookback: bringing the shard "${name}" up to date (redacted)${layOut ? ", laid out for reading by ranges" : ""}…`);
		const update = await updateShard(opened, dir, layOut);
		const pageBytes = pageSizeOf(update.path);
		const hashes = pageHashes(update.path, pageBytes);
		const shardBytes = hashes.length * pageBytes;

		// Where each page of the last publish lies, by its hash.
		const known = new Map<string, [number, number]>();
		const packs: string[] = [];
		if (state) {
			const oldPlaces: [number, number][] = [];
			for (const [first, count, pack, at] of state.extents) for (let i = 0; i < count; i++) oldPlaces[first + i] = [pack, at + i];
			state.hashes.forEach((hash, page) => {
				const place = oldPlaces[page];
				if (place && !known.has(hash)) known.set(hash, place);
			});
		}
		const usedOld = new Map<number, number>(); // old pack index → new pack index
		const places: [number, number][] = [];
		const fresh: number[] = [];
		hashes.forEach((hash, page) => {
			const old = known.get(hash);
			if (old && state) {
				let packIndex = usedOld.get(old[0]);
				if (packIndex === undefined) {
					packIndex = packs.push(state.packs[old[0]]) - 1;
					usedOld.set(old[0], packIndex);
				}
				places[page] = [packIndex, old[1]];
			} else fresh.push(page);
		});
		// New pages in new packs, in file order (a reader's run of pages stays a run of one pack).
		const fd = openSync(update.path, "r");
		let uploadedBytes = 0;
		let uploadedObjects = 0;
		const uploads: { key: string; bytes: Uint8Array }[] = [];
		try {
			const perPack = Math.max(1, Math.floor(PACK_BYTES / pageBytes));
			for (let i = 0; i < fresh.length; i += perPack) {
				const pages = fresh.slice(i, i + perPack);
				const bytes = Buffer.alloc(pages.length * pageBytes);
				for (const [j, page] of pages.entries()) readSync(fd, bytes, j * pageBytes, pageBytes, page * pageBytes);
				const pack = `packs/${createHash("sha256").update(bytes).digest("hex").slice(0, 32)}.pack`;
				const packIndex = packs.push(pack) - 1;
				for (const [j, page] of pages.entries()) places[page] = [packIndex, j];
				uploads.push({ key: packKey(name, pack), bytes });
			}
		} finally {
			closeSync(fd);
		}
		log(
			`lookback: sending ${fresh.length} of ${hashes.length} pages (${((fresh.length * pageBytes) / 1e6).toFixed(1)} MB of ${(shardBytes / 1e6).toFixed(1)} MB)…`,
		);
		await inParallel(uploads, PARALLEL_PUTS, async ({ key, bytes }) => {
			await store.put(key, bytes);
			uploadedBytes += bytes.length;
			uploadedObjects++;
		});
		await stallForTests(env, log);

		const generation = (current?.generation ?? 0) + 1;
		const reads = update.reads ?? { open: state?.open ?? [], prefetch: state?.prefetch ?? [] };
		const manifest: ShardManifest = {
			format: "lookback-shard",
			version: 1,
			name,
			publisher,
			generation,
			publishedAt: new Date().toISOString(),
			pageBytes,
			size: shardBytes,
			packs,
			extents: extentsOf(places),
			open: reads.open,
			prefetch: reads.prefetch,
			sessions: update.sessions,
		};
		const next: PublishState = {
			remote: store.describe,
			generation,
			hashes,
			packs,
			extents: manifest.extents,
			open: reads.open,
			prefetch: reads.prefetch,
			sentSinceLayout: update.laidOut ? 0 : (state?.sentSinceLayout ?? 0) + uploadedBytes,
		};
		writeJsonAtomic(pendingPath, next);
		const manifestBytes = json(manifest);
		await store.put(manifestKey(name), manifestBytes, "application/json");
		uploadedBytes += manifestBytes.length;
		uploadedObjects++;
		writeJsonAtomic(statePath, next);
		rmSync(pendingPath, { force: true });

		uploadedObjects += await listShard(store, name);
		// Packs neither this manifest nor the one before it names: a reader that opened the one before keeps its pages.
		let removedPacks = 0;
		try {
			const keep = new Set([...packs, ...(current?.packs ?? [])].map((p) => packKey(name, p)));
			for (const key of await store.list(`shards/${name}/packs/`)) {
				if (keep.has(key)) continue;
				await store.remove(key);
				removedPacks++;
			}
		} catch (error) {
			log(`lookback: old packs not removed (${errorMessage(error)}); the next publish tries again`);
		}
		return {
			name,
			remote: store.describe,
			generation,
			sessions: update.sessions,
			shardBytes,
			uploadedBytes,
			uploadedObjects,
			newPages: fresh.length,
			reusedPages: hashes.length - fresh.length,
			laidOut: update.laidOut,
			removedPacks,
			seconds: (Date.now() - started) / 1000,
		};
	} finally {
		unlock();
	}
}
