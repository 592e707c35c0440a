/**
 * The Web Worker that holds the database: the page never blocks on a query. It answers the calls of
 * protocol.ts with the core's own search, browse and read.
 */

// First (a module is evaluated where it is first imported): the engine's wasm is taken from the page, or fetched and
// compiled, while the rest of this script is evaluated.
import "./early-wasm.js";
import { errorMessage, exportSession, hasEngineFiles, LookbackError, type LookbackIndex, type ReadRange } from "../../src/core/index.js";
import { engineWasm } from "./early-wasm.js";
import { loadWebEngine } from "./engine.js";
import { importIndex, localFiles, localIndex, localReads, openLocal, scan } from "./local-index.js";
import type { CallMessage, Calls, IndexInfo, ProgressMessage, ReplyMessage } from "./protocol.js";
import { NoServedIndex, openServed, type ServedIndex } from "./served-index.js";
import { pickedSessionRange, servedSessionRange } from "./session-ranges.js";
import { teamBrowse, teamInfo, teamLanding, teamRead, teamSearch } from "./team-calls.js";
import { type OpenTeam, openTeam } from "./team-index.js";

let served: ServedIndex | undefined;
/** A team's bucket, when the page was opened on one (`?team=`): every call runs over its shards (team-calls.ts). */
let team: OpenTeam | undefined;
let lastOpen: Parameters<Calls["open"]>[0] | undefined;
const engine = loadWebEngine({ wasmModule: engineWasm }).then((sql) => {
	if (!hasEngineFiles(sql)) throw new LookbackError("engine-missing-feature", "the engine build lacks its filesystem");
	return sql;
});

async function open(args: Parameters<Calls["open"]>[0]): Promise<IndexInfo> {
	served?.index.close();
	served = undefined;
	lastOpen = args;
	if (args.team) {
		team = await openTeam(await engine, new URL(args.team, self.location.href).href);
		return teamInfo(team);
	}
	try {
		served = await openServed(engine, new URL(args.url, self.location.href).href, args.mode);
	} catch (error) {
		// Nothing served beside the page: no-server mode, on the index this browser keeps.
		if (error instanceof NoServedIndex)
			return { ...(await openLocal(await engine, args.keep ?? true, args.store)), unreachable: error.unreachable };
		throw error;
	}
	return served.info;
}

/** Run a call on the open index; when the served file changed under a paged read, open it again and retry once. */
async function onIndex<T>(fn: (index: LookbackIndex) => T): Promise<T> {
	const local = localIndex();
	if (!served && local) return fn(local);
	if (!served) throw new LookbackError("io", "no index is open");
	try {
		return fn(served.index);
	} catch (error) {
		if (!served.file?.changed || !lastOpen) throw error;
		await open(lastOpen);
		return fn(served.index);
	}
}

/** Where the open index's session files can be read in part: beside the served index, or the files picked here. */
function sessionRange(): ReadRange {
	return served && lastOpen ? servedSessionRange(new URL(lastOpen.url, self.location.href).href) : pickedSessionRange(localFiles());
}

const calls: { [K in keyof Calls]: (args: Parameters<Calls[K]>[0]) => ReturnType<Calls[K]> | Promise<ReturnType<Calls[K]>> } = {
	open,
	search: ({ shard, ...args }) => (team ? teamSearch(team, { ...args, shard }) : onIndex((index) => index.search(args))),
	browse: ({ shard, ...args }) => (team ? teamBrowse(team, { ...args, shard }) : onIndex((index) => index.browse(args))),
	read: ({ ref, shard, ...options }) => (team ? teamRead(team, { ref, shard, ...options }) : onIndex((index) => index.read(ref, options))),
	export: async ({ ref, format, branch }) => {
		const file = team
			? await (async () => {
					const s = teamRead(team, { ref, window: 1 }).shard;
					const shard = team.shards.find((x) => x.name === s)!;
					return exportSession(shard.index, ref, { format, branch, readRange: shard.readRange });
				})()
			: await onIndex((index) => exportSession(index, ref, { format, branch, readRange: sessionRange() }));
		const redacted = Object.values(file.document.redactions).reduce((n, c) => n + c, 0);
		return { content: file.content, fileName: file.fileName, mimeType: file.mimeType, redacted };
	},
	landing: ({ shard }) =>
		team ? teamLanding(team, shard) : onIndex((index) => ({ activity: index.activity(), projects: index.projects() })),
	// Over a team: the machine filtered by, else the first (a dashboard's figures are one index's).
	dashboard: (args) =>
		team
			? (team.shards.find((s) => s.name === args.shard) ?? team.shards[0]).index.dashboard(args)
			: onIndex((index) => index.dashboard(args)),
	prefetch: () => served?.prefetch?.(),
	transfer: () =>
		team
			? { ...team.counters }
			: { ...(served?.file?.counters ?? { requests: 0, bytes: 0 }), prefetch: served?.file?.prefetched, file: localReads() },
	openLocal: async ({ keep, store }) => openLocal(await engine, keep, store),
	scan: (args) => scan(args, (progress) => (self as unknown as Worker).postMessage({ progress } satisfies ProgressMessage)),
	importIndex: async ({ file }) => importIndex(await engine, file),
};

self.onmessage = async (event: MessageEvent<CallMessage>) => {
	if (!("call" in event.data)) return; // the engine's wasm, taken by early-wasm.ts
	const { id, call, args } = event.data;
	let reply: ReplyMessage;
	try {
		reply = { id, ok: true, value: await (calls[call] as (a: unknown) => unknown)(args) };
	} catch (error) {
		reply = { id, ok: false, error: errorMessage(error).replace(/^lookback: /, ""), code: (error as { code?: string }).code };
	}
	(self as unknown as Worker).postMessage(reply);
};
