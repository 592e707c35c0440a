/**
 * No-server mode, in the worker: the index this browser builds from session files a person picks, kept in the
 * origin private file system and opened in place where the worker has synchronous access handles
 * (opfs-storage.ts), else a snapshot in IndexedDB, or in memory when the browser keeps nothing (e.g. private
 * mode). A rescan parses only new and changed files (the core compares size and time); an imported index file
 * is checked before it replaces anything, and the index it replaces is kept aside.
 */

import { createStore, del, get, set, type UseStore } from "idb-keyval";
import {
	DEFAULTS,
	type EngineIoCounters,
	errorMessage,
	type FilesEngine,
	fileProblems,
	isInPlace,
	LookbackIndex,
	memoryStorage,
	type SnapshotStorage,
	type SyncProgress,
} from "../../src/core/index.js";
import { browserSource, filesOfFolder, type PickedFile } from "./browser-source.js";
import { idbStorage } from "./idb-storage.js";
import { checkIndexFile } from "./index-file.js";
import { hasOpfs, OpfsInUse, type OpfsStorage, openOpfsStorage } from "./opfs-storage.js";
import type { IndexInfo, ScanReport, ScanRequest } from "./protocol.js";

const KEY = "index.db";

interface Local {
	index: LookbackIndex;
	/** A snapshot (IndexedDB or memory), or the file in OPFS. */
	storage: SnapshotStorage | OpfsStorage;
	/** The IndexedDB store of the folder handles (and of the snapshot, when the index is one). */
	store?: UseStore;
	/** Where the index is kept across visits, for the page. */
	keptIn?: string;
	/** Why nothing is kept across visits, when that is so. */
	notKept?: string;
	/** Bytes of the index (as last loaded or saved, for a snapshot). */
	bytes(): number;
}

let local: Local | undefined;
/** The files of the last scan, by path: an export reads long messages whole from them. */
let pickedFiles = new Map<string, File>();
/** The index files in OPFS, opened once by this worker: their handles lock them for as long as it runs. */
let opfs: OpfsStorage | undefined;
/** Folder handles picked this session when IndexedDB cannot keep them. */
let folders: FileSystemDirectoryHandle[] = [];

const NOT_KEPT = "this browser keeps no data for the page (private mode?): the index lives in this tab only and is gone when it closes";

/** Open on a snapshot `storage`, the size of what it loads and saves noted for the page. */
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
	const keptIn = notKept === undefined ? "IndexedDB" : undefined;
	return {
		index: await LookbackIndex.open({ sql: engine, storage: sized }),
		storage: sized,
		store,
		keptIn,
		notKept,
		bytes: () => size.bytes,
	};
}

/** An index an earlier visit kept in IndexedDB moves into OPFS once, when OPFS holds none yet. */
async function moveFromIndexedDb(files: OpfsStorage, store: UseStore): Promise<void> {
	const old = await idbStorage(KEY, store).load();
	if (old && old.length > 0 && files.adopt(old)) await del(KEY, store);
}

/** Open the index kept in OPFS; when another tab holds it, an index in memory for this tab, and the page says why. */
async function openInOpfs(engine: FilesEngine, store: UseStore): Promise<Local> {
	try {
		opfs ??= await openOpfsStorage(engine);
	} catch (error) {
		// OPFS refused for another reason (some private modes): the snapshot in IndexedDB, as where OPFS is missing.
		if (!(error instanceof OpfsInUse)) return openOn(engine, idbStorage(KEY, store), store);
		const why = `${error.message}: this tab's index lives in memory only; close the other tab and reload this one to use the kept index`;
		return openOn(engine, memoryStorage(), store, why);
	}
	await moveFromIndexedDb(opfs, store);
	const storage = opfs;
	return { index: await LookbackIndex.open({ sql: engine, storage }), storage, store, keptIn: "OPFS", bytes: () => storage.bytes() };
}

/**
 * Open the index this browser keeps (a new one when there is none); `keep` false when the page found no IndexedDB.
 * `store` "indexeddb" keeps it in IndexedDB even where OPFS could.
 */
export async function openLocal(engine: FilesEngine, keep: boolean, store?: "indexeddb"): Promise<IndexInfo> {
	local?.index.close();
	local = undefined;
	if (keep) {
		try {
			const idb = createStore("lookback", "index");
			folders = (await get<FileSystemDirectoryHandle[]>("folders", idb)) ?? [];
			local = store !== "indexeddb" && hasOpfs() ? await openInOpfs(engine, idb) : await openOn(engine, idbStorage(KEY, idb), idb);
		} catch (error) {
			local = await openOn(engine, memoryStorage(), undefined, `${NOT_KEPT} (${errorMessage(error)})`);
		}
	} else local = await openOn(engine, memoryStorage(), undefined, NOT_KEPT);
	return localInfo();
}

export function localIndex(): LookbackIndex | undefined {
	return local?.index;
}

/** The files picked in this tab's last scan (none after a reload until the next). */
export function localFiles(): ReadonlyMap<string, File> {
	return pickedFiles;
}

function localInfo(): IndexInfo {
	if (!local) throw new Error("no local index");
	const { keptIn, notKept } = local;
	return { mode: "local", ...local.index.overview(), bytes: local.bytes(), etag: null, keptIn, notKept, folders };
}

/** Reads of the index file in OPFS (the engine's counters): a search reads some pages, not the whole file. */
export function localReads(): (EngineIoCounters & { size: number }) | undefined {
	return local?.storage === opfs && opfs ? { ...opfs.counters, size: opfs.bytes() } : undefined;
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
	pickedFiles = new Map(picked.map((p) => [p.path, p.file]));
	const report = await l.index.sync(source, { onProgress, batchMs: DEFAULTS.soleWriterBatchMs });
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
		opencode: source.opencode,
		problems: problems.map(
			(p) =>
				`${p.path}: ${p.entries === 0 ? "nothing in it is a session entry" : (p.problem ?? "some lines are damaged")}${p.malformedLines > 0 ? ` (${p.malformedLines} malformed line${p.malformedLines === 1 ? "" : "s"})` : ""}`,
		),
		warnings: report.warnings.map((w) =>
			"message" in w
				? w.message
				: "error" in w
					? w.error
					: `the index kept in this browser was unusable (${w.reason}) and was built again${w.setAside ? `; the old one is kept as ${w.setAside}` : ""}`,
		),
		info: localInfo(),
	};
}

/** Replace the local index with a checked index file; the one it replaces is kept under another key. */
export async function importIndex(engine: FilesEngine, file: File): Promise<IndexInfo> {
	if (!local) throw new Error("no local index is open");
	const bytes = new Uint8Array(await file.arrayBuffer());
	await checkIndexFile(engine, bytes, file.name);
	const previous = local;
	const storage = previous.storage;
	if (isInPlace(storage)) {
		previous.index.close();
		await storage.replace(bytes);
		local = { ...previous, index: await LookbackIndex.open({ sql: engine, storage }) };
		return localInfo();
	}
	if (previous.store && previous.keptIn) {
		const old = await storage.load();
		if (old && old.length > 0) await set(`${KEY}.replaced-${new Date().toISOString()}`, old, previous.store);
		await storage.save(bytes);
	}
	previous.index.close();
	local = previous.keptIn
		? await openOn(engine, storage, previous.store)
		: await openOn(engine, memoryStorage(bytes), previous.store, previous.notKept);
	return localInfo();
}
