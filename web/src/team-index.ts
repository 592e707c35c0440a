/**
 * A team's bucket opened in the viewer's worker: `?team=URL` of the page (a bucket's HTTPS address, which must allow
 * this page's origin by CORS and expose Content-Range), or `lookback serve --remote`, which passes the bucket through
 * its own `/team/` route. Every shard is a lookback index read by ranges of its packs (src/core/team/shard-file.ts,
 * with a synchronous XMLHttpRequest for SQLite's reads); a call runs on each shard in turn and the answers are
 * merged as the command line merges them (src/core/team/merge.ts), each hit and session naming its machine.
 */

import { inflateSync } from "fflate";
import { type FilesEngine, LookbackError, LookbackIndex, mountEngineFiles, type ReadRange } from "../../src/core/index.js";
import type { FannedOut } from "../../src/core/team/merge.js";
import { type FetchPages, ShardFile, shardFiles } from "../../src/core/team/shard-file.js";
import { manifestKey, packKey, parseManifest, parseTeam, type ShardManifest, TEAM_KEY } from "../../src/core/team/shard-format.js";
import { readOnlyStorage } from "./read-only-storage.js";

export interface TeamShard {
	name: string;
	manifest: ShardManifest;
	index: LookbackIndex;
	file: ShardFile;
	readRange: ReadRange;
}

export interface OpenTeam {
	url: string;
	shards: TeamShard[];
	/** Shards that could not be opened, and why. */
	problems: { shard: string; error: string }[];
	counters: { requests: number; bytes: number };
}

let mounts = 0;

function xhrPages(base: string, counters: OpenTeam["counters"]): FetchPages {
	return (parts) =>
		parts.map(({ key, start, end }) => {
			const xhr = new XMLHttpRequest();
			xhr.open("GET", `${base}/${key}`, false);
			xhr.responseType = "arraybuffer";
			xhr.setRequestHeader("Range", `bytes=${start}-${end - 1}`);
			try {
				xhr.send();
			} catch (error) {
				throw new Error(`cannot reach ${base} (${(error as Error).message})`);
			}
			const body = xhr.response as ArrayBuffer | null;
			counters.requests++;
			counters.bytes += body?.byteLength ?? 0;
			if (xhr.status !== 206 || !body || body.byteLength !== end - start)
				throw new Error(`${key}: HTTP ${xhr.status} for a range (damaged shard?)`);
			return new Uint8Array(body);
		});
}

async function getJson(url: string, counters: OpenTeam["counters"]): Promise<Uint8Array | undefined> {
	const response = await fetch(url, { cache: "no-store" });
	counters.requests++;
	if (response.status === 404 || response.status === 403) return undefined;
	if (!response.ok) throw new LookbackError("remote", `${url}: HTTP ${response.status}`);
	const bytes = new Uint8Array(await response.arrayBuffer());
	counters.bytes += bytes.length;
	return bytes;
}

export async function openTeam(engine: FilesEngine, teamUrl: string): Promise<OpenTeam> {
	const url = teamUrl.replace(/\/+$/, "");
	const counters = { requests: 0, bytes: 0 };
	const listing = await getJson(`${url}/${TEAM_KEY}`, counters);
	if (!listing) throw new LookbackError("remote", `${url} has no ${TEAM_KEY}: nothing was published there yet`);
	const team: OpenTeam = { url, shards: [], problems: [], counters };
	for (const name of parseTeam(listing, `${url}/${TEAM_KEY}`).shards) {
		try {
			const bytes = await getJson(`${url}/${manifestKey(name)}`, counters);
			if (!bytes) throw new LookbackError("remote", `${url}/${manifestKey(name)} is missing`);
			const manifest = parseManifest(bytes, `${url}/${manifestKey(name)}`);
			const fetchPages = xhrPages(url, counters);
			const file = new ShardFile(manifest, (parts) => fetchPages(parts.map((p) => ({ ...p, key: packKey(name, p.key) }))));
			const mountpoint = mountEngineFiles(engine.FS, shardFiles("index.db", file), `team${++mounts}`, {
				reads: 0,
				bytesRead: 0,
				writes: 0,
				fsyncs: 0,
			});
			let index: LookbackIndex;
			try {
				index = await LookbackIndex.open({
					sql: engine,
					storage: readOnlyStorage(engine, `${mountpoint}/index.db`, `${url} shard ${name}`),
				});
			} catch (error) {
				throw new LookbackError("remote", file.lastError ?? (error as Error).message.replace(/^lookback: /, ""));
			}
			const readRange: ReadRange = (path, start) => {
				const row = index.db.exec("SELECT line FROM shard_lines WHERE path = ? AND off = ?", [path, start])[0]?.values[0]?.[0];
				return row instanceof Uint8Array ? inflateSync(row) : undefined;
			};
			team.shards.push({ name, manifest, index, file, readRange });
		} catch (error) {
			team.problems.push({ shard: name, error: (error as Error).message.replace(/^lookback: /, "") });
		}
	}
	return team;
}

/** A call of every shard (or the one named), each answering or failing alone. */
export function fanOut<T>(team: OpenTeam, run: (shard: TeamShard) => T, only?: string): FannedOut<T> {
	const answers: { shard: string; value: T }[] = [];
	const problems = [...team.problems];
	for (const shard of team.shards) {
		if (only && shard.name !== only) continue;
		try {
			answers.push({ shard: shard.name, value: run(shard) });
		} catch (error) {
			if ((error as { code?: string }).code === "session-not-found") continue;
			const cause = shard.file.lastError;
			shard.file.lastError = undefined;
			problems.push({ shard: shard.name, error: (cause ?? (error as Error).message).replace(/^lookback: /, "") });
		}
	}
	return { answers, problems };
}
