/**
 * No-server mode, in the worker: the index this browser builds from session files a person picks, kept in
 * IndexedDB (or in memory when the browser keeps nothing, e.g. private mode). A rescan parses only new and
 * changed files (the core compares size and time); an imported index file is checked before it replaces
 * anything, and the index it replaces is kept aside.
 */

import { createStore, get, set, type UseStore } from "idb-keyval";
import {
	errorMessage,
	type FilesEngine,
	fileProblems,
	LookbackIndex,
	memoryStorage,
	type SnapshotStorage,
	type SyncProgress,
} from "../../src/core/index.js";
import { browserSource, filesOfFolder, type PickedFile } from "./browser-source.js";
import { idbStorage } from "./idb-storage.js";
import { checkIndexFile } from "./index-file.js";
import type { IndexInfo, ScanReport, ScanRequest } from "./protocol.js";

const KEY = "index.db";

interface Local {
	index: LookbackIndex;
	storage: SnapshotStorage;
	store?: UseStore;
	/** Why nothing is kept across visits, when that is so. */
	notKept?: string;
	/** Bytes of the index as last loaded or saved. */
	size: { bytes: number };
}

let local: Local | undefined;
/** Folder handles picked this session when IndexedDB cannot keep them. */
let folders: FileSystemDirectoryHandle[] = [];

const NOT_KEPT = "this browser keeps no data for the page (private mode?): the index lives in this tab only and is gone when it closes";

/** Open on `storage`, the size of what it loads and saves noted for the page. */
async function openOn(engine: FilesEngine, storage: SnapshotStorage, store: UseStore | undefined, notKept?: string): Promise<Local> {
	const size = { bytes: 0 };
	const sized: SnapshotStorage = {
		...storage,
		load: async () => {
			const bytes = await storage.load();
			size.bytes = bytes?.length ?? 0;
			return bytes;
		},
		save: async (bytes) => {
			await storage.save(bytes);
			size.bytes = bytes.length;
		},
	};
	return { index: await LookbackIndex.open({ sql: engine, storage: sized }), storage: sized, store, notKept, size };
}

/** Open the index this browser keeps (a new one when there is none); `keep` false when the page found no IndexedDB. */
export async function openLocal(engine: FilesEngine, keep: boolean): Promise<IndexInfo> {
	local?.index.close();
	local = undefined;
	if (keep) {
		try {
			const store = createStore("lookback", "index");
			local = await openOn(engine, idbStorage(KEY, store), store);
			folders = (await get<FileSystemDirectoryHandle[]>("folders", store)) ?? [];
		} catch (error) {
			local = await openOn(engine, memoryStorage(), undefined, `${NOT_KEPT} (${errorMessage(error)})`);
		}
	} else local = await openOn(engine, memoryStorage(), undefined, NOT_KEPT);
	return localInfo();
}

export function localIndex(): LookbackIndex | undefined {
	return local?.index;
}

function localInfo(): IndexInfo {
	if (!local) throw new Error("no local index");
	return { mode: "local", ...local.index.overview(), bytes: local.size.bytes, etag: null, notKept: local.notKept, folders };
}

/** Save after a change; a browser that refuses the write keeps the index for this tab and says so. */
async function save(l: Local): Promise<void> {
	try {
		await l.index.save();
	} catch (error) {
		l.notKept = `the index could not be kept in this browser (${errorMessage(error)}): it lives in this tab only`;
	}
}

export async function scan(request: ScanRequest, onProgress: (p: SyncProgress) => void): Promise<ScanReport> {
	if (!local) throw new Error("no local index is open");
	const l = local;
	const picked: PickedFile[] = [...(request.files ?? [])];
	const handles = request.folders ?? (request.rescanFolders ? folders : []);
	for (const folder of handles) picked.push(...(await filesOfFolder(folder)));
	if (request.folders) {
		folders = [...folders.filter((f) => !request.folders?.some((n) => n.name === f.name)), ...request.folders];
		if (l.store) await set("folders", folders, l.store).catch(() => undefined);
	}
	const source = browserSource(picked);
	const report = await l.index.sync(source, { onProgress });
	await save(l);
	const problems = l.index.reading((db) => fileProblems(db, [...source.parsed]));
	return {
		seen: report.filesSeen,
		parsed: report.filesParsed,
		added: report.added,
		grown: report.grown,
		rewritten: report.rewritten,
		unchanged: report.unchanged,
		bytesRead: report.bytesRead,
		skipped: report.skippedFiles.map((s) => `${s.path} (${s.reason}${s.detail ? `: ${s.detail}` : ""})`),
		problems: problems.map(
			(p) =>
				`${p.path}: ${p.entries === 0 ? "nothing in it is a session entry" : (p.problem ?? "some lines are damaged")}${p.malformedLines > 0 ? ` (${p.malformedLines} malformed line${p.malformedLines === 1 ? "" : "s"})` : ""}`,
		),
		warnings: report.warnings.map((w) => ("message" in w ? w.message : "error" in w ? w.error : w.reason)),
		info: localInfo(),
	};
}

/** Replace the local index with a checked index file; the one it replaces is kept under another key. */
export async function importIndex(engine: FilesEngine, file: File): Promise<IndexInfo> {
	if (!local) throw new Error("no local index is open");
	const bytes = new Uint8Array(await file.arrayBuffer());
	await checkIndexFile(engine, bytes, file.name);
	const previous = local;
	if (previous.store) {
		const old = await previous.storage.load();
		if (old && old.length > 0) await set(`${KEY}.replaced-${new Date().toISOString()}`, old, previous.store);
		await previous.storage.save(bytes);
	}
	previous.index.close();
	local = previous.store
		? await openOn(engine, previous.storage, previous.store)
		: await openOn(engine, memoryStorage(bytes), undefined, previous.notKept);
	return localInfo();
}
