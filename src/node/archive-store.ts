/**
 * lookback's archive on disk, beside the index (`<index dir>/archive/` unless told): a copy of every session
 * file as its source returned it when it was indexed (a session an agent keeps as rows, OpenCode's: the document
 * the index parsed), kept after the agent removes the file.
 *
 *   manifest.jsonl        one line per change: which data file holds which path, how far (archive-manifest.ts)
 *   data/<xx>/<name>      a file's copy: gzip members of its bytes (a grown file gets a member more), or the
 *                         bytes as they are for a file compressed already (omp's .jsonl.gz, Codex's .jsonl.zst)
 *   forgotten.jsonl       sessions removed by `lookback forget`: never indexed again
 *   manifest.locks/       the writer's lock, in the index's lock protocol (index-locks.ts)
 *
 * Crash safety: a data file is only appended to past the length its manifest line names, or written new; the
 * manifest line that names the new length is appended only once the data is synced; a replaced copy is removed
 * only after the line naming its successor is synced. A writer killed at any point loses at most its batch.
 */

import { readdirSync, statSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import {
	type ArchiveState,
	DEFAULTS,
	fingerprint,
	type KeepResult,
	type KeptBytes,
	type KeptFacts,
	keptCurrent,
	LookbackError,
	type SessionArchive,
	type SessionFileInfo,
} from "../core/index.js";
import { CopyReader, copyName, syncAsync, writeCopy } from "./archive-copies.js";
import { ForgottenList } from "./archive-forgotten.js";
import { ArchiveInStep } from "./archive-in-step.js";
import { type ArchiveRecord, Manifest } from "./archive-manifest.js";
import { IndexLocks } from "./index-locks.js";
import { makePrivate, makePrivateDir, PRIVATE_DIR } from "./private-files.js";
import { sleepSync } from "./process-identity.js";

/** What `lookback stats` says of the archive. */
export interface ArchiveStats {
	dir: string;
	/** False: turned off (no copies kept; those it holds are still read). */
	keeping: boolean;
	/** Files held, and of them those whose source is gone. */
	files: number;
	gone: number;
	/** Bytes of the sources held, and what the archive takes on disk for them. */
	sourceBytes: number;
	bytes: number;
	forgotten: number;
}

function isCompressed(path: string): boolean {
	return path.endsWith(".gz") || path.endsWith(".zst");
}

/** A batch of writes under the lock: the manifest lines to append, the data files and folders to sync, the replaced copies to remove. */
interface Batch {
	lines: ArchiveRecord[];
	files: Set<string>;
	dirs: Set<string>;
	replaced: string[];
}

export class FileArchive implements SessionArchive {
	readonly manifest: Manifest;
	readonly forgotten: ForgottenList;
	private readonly locks: IndexLocks;
	private batch: Batch | undefined;
	/** Keeps run one after another (each reads, compresses off the main thread, writes). */
	private chain: Promise<unknown> = Promise.resolve();
	private readonly reader = new CopyReader();

	/** Whether copies are kept (false: the archive is turned off, and only its forgotten sessions count). */
	readonly keeping: boolean;
	private readonly waitMs: number;

	/** Whether a sync need read the state (archive-in-step.ts), for the index the archive serves. */
	private readonly steps?: ArchiveInStep;

	/** `indexPath`: the index this archive serves, for a sync to tell that neither changed (`mark`, `inStep`). */
	constructor(
		readonly dir: string,
		options: { keeping?: boolean; waitMs?: number; indexPath?: string } = {},
	) {
		this.keeping = options.keeping ?? true;
		this.waitMs = options.waitMs ?? DEFAULTS.writeWaitMs;
		this.manifest = new Manifest(join(dir, "manifest.jsonl"));
		this.forgotten = new ForgottenList(join(dir, "forgotten.jsonl"));
		this.locks = new IndexLocks(join(dir, "manifest"));
		if (options.indexPath) this.steps = new ArchiveInStep(options.indexPath, [this.manifest.path, this.forgotten.path]);
	}

	mark(): string | undefined {
		return this.steps?.mark();
	}

	noteInStep(mark: string, walked: string): void {
		this.steps?.note(mark, walked);
	}

	inStep(mark: string, walked: string): boolean {
		return this.steps?.holds(mark, walked) ?? false;
	}

	describe(): string {
		return this.dir;
	}

	async state(): Promise<ArchiveState> {
		if (!this.keeping) return { files: new Map(), forgotten: this.forgotten.read() };
		this.manifest.refresh();
		return { files: this.manifest.records, forgotten: this.forgotten.read() };
	}

	/**
	 * Take the writer's lock, waiting up to `waitMs` for another writer (a dead one's lock is removed): blocking
	 * for a command, or yielding between tries for a sync (a long-lived host's event loop goes on).
	 */
	lock(): boolean {
		this.makeFolders();
		const deadline = Date.now() + this.waitMs;
		for (let pause = 2; !this.locks.reserved(); pause = Math.min(pause * 2, 50)) {
			if (Date.now() >= deadline) return false;
			sleepSync(pause);
		}
		this.locked();
		return true;
	}

	private async lockAsync(): Promise<boolean> {
		this.makeFolders();
		const deadline = Date.now() + this.waitMs;
		for (let pause = 2; !this.locks.reserved(); pause = Math.min(pause * 2, 50)) {
			if (Date.now() >= deadline) return false;
			await new Promise((resolve) => setTimeout(resolve, pause + Math.random() * pause));
		}
		this.locked();
		return true;
	}

	/** The archive's folders, private (one an older lookback made readable by others is made private too). */
	private makeFolders(): void {
		makePrivateDir(join(this.dir, "data"));
		makePrivate(this.dir, PRIVATE_DIR);
	}

	/** With the lock: a line a killed writer left unfinished is cut off, and the manifest read to its end. */
	private locked(): void {
		this.manifest.cutTornTail();
		this.manifest.refresh();
	}

	unlock(): void {
		this.locks.release("none");
	}

	async begin(): Promise<boolean> {
		if (!this.keeping) return false;
		if (this.batch) throw new LookbackError("bad-argument", "an archive batch is already open");
		if (!(await this.lockAsync())) return false;
		this.batch = { lines: [], files: new Set(), dirs: new Set(), replaced: [] };
		return true;
	}

	keep(file: SessionFileInfo, bytes: KeptBytes, facts: KeptFacts): Promise<KeepResult> {
		const batch = this.batch;
		if (!batch) return Promise.reject(new LookbackError("bad-argument", "keep() outside a batch"));
		const done = this.chain.then(() => this.keepNow(batch, file, bytes, facts));
		this.chain = done.catch(() => undefined);
		return done;
	}

	markGone(path: string, at: number | undefined): void {
		const record = this.manifest.records.get(path);
		if (!this.batch || !record || record.goneAt === at) return;
		const next: ArchiveRecord = { ...record, at: Date.now() };
		if (at === undefined) delete next.goneAt;
		else next.goneAt = at;
		this.put(this.batch, next);
	}

	async commit(): Promise<void> {
		const batch = this.batch;
		if (!batch) return;
		try {
			await this.chain;
			// The batch's data, then the folders of its new files, synced together on libuv's threads; then the manifest.
			await Promise.all([...batch.files].map(syncAsync));
			await Promise.all([...batch.dirs].map(syncAsync));
			this.manifest.append(batch.lines);
			for (const data of batch.replaced) unlinkQuietly(this.dataPath(data));
			if (this.manifest.wantsCompaction()) this.compact();
		} catch (error) {
			this.manifest.reload();
			throw error;
		} finally {
			this.batch = undefined;
			this.unlock();
		}
	}

	async release(): Promise<void> {
		if (!this.batch) return;
		this.batch = undefined;
		// Keeps still running finish under the lock; their lines are dropped with the batch, and the manifest is read again as it is.
		await this.chain;
		this.manifest.reload();
		this.unlock();
	}

	async read(path: string, start: number, end: number): Promise<Uint8Array> {
		const bytes = this.readSync(path, start, end);
		if (!bytes) throw new LookbackError("session-not-found", `the archive ${this.dir} holds no copy of ${path}`);
		return bytes;
	}

	/** Bytes [start, end) of a file's copy (cut at the bytes held), or undefined when the archive holds none. */
	readSync(path: string, start: number, end: number): Uint8Array | undefined {
		this.manifest.refresh();
		for (let attempt = 0; attempt < 2; attempt++) {
			const record = this.manifest.records.get(path);
			if (!record) return undefined;
			try {
				return this.reader.read(this.dataPath(record.data), record, start, Math.min(end, record.size));
			} catch (error) {
				// The copy was replaced under this reader (another process kept it again): read the manifest anew.
				if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
				this.manifest.reload();
			}
		}
		return undefined;
	}

	/**
	 * The size of a file's copy, or undefined: none is held, or it is a session rendered from rows, whose document
	 * is no file (it is not bounded by the size limit of session files, and it has no line a reader asks for by range).
	 */
	sizeOf(path: string): number | undefined {
		this.manifest.refresh();
		const record = this.manifest.records.get(path);
		return record?.rowsStamp === undefined ? record?.size : undefined;
	}

	stats(): ArchiveStats {
		this.manifest.refresh();
		let gone = 0;
		let sourceBytes = 0;
		let bytes = statSync(this.manifest.path, { throwIfNoEntry: false })?.size ?? 0;
		for (const r of this.manifest.records.values()) {
			if (r.goneAt !== undefined) gone++;
			sourceBytes += r.size;
			bytes += r.dataSize;
		}
		const forgotten = this.forgotten.read();
		return {
			dir: this.dir,
			keeping: this.keeping,
			files: this.manifest.records.size,
			gone,
			sourceBytes,
			bytes,
			forgotten: forgotten.paths.size,
		};
	}

	/**
	 * Remove copies for good and remember the sessions as forgotten (`lookback forget`): the tombstones first,
	 * then the manifest lines, then the data. Returns how many copies went.
	 */
	forget(sessions: { path: string; sessionId?: string }[]): number {
		if (!this.lock()) throw new LookbackError("index-busy", `the archive ${this.dir} is busy: another process kept it locked; try again`);
		try {
			this.forgotten.add(sessions);
			const held = sessions.map((s) => this.manifest.records.get(s.path)).filter((r): r is ArchiveRecord => r !== undefined);
			this.manifest.append(held.map((r) => ({ path: r.path, drop: true as const })));
			for (const r of held) unlinkQuietly(this.dataPath(r.data));
			return held.length;
		} finally {
			this.unlock();
		}
	}

	private put(batch: Batch, record: ArchiveRecord): void {
		this.manifest.records.set(record.path, record);
		batch.lines.push(record);
	}

	private dataPath(data: string): string {
		return join(this.dir, "data", data);
	}

	private async keepNow(batch: Batch, file: SessionFileInfo, bytes: KeptBytes, facts: KeptFacts): Promise<KeepResult> {
		const old = this.manifest.records.get(file.path);
		const mtimeMs = Math.floor(file.mtimeMs);
		const mode = file.rendered ? undefined : modeOf(file.path);
		const codec = isCompressed(file.path) ? "raw" : "gz";
		if (old && keptCurrent(old, file)) return { how: "unchanged", bytesRead: 0, bytesWritten: 0 };
		const { size, read } = bytes;
		const fp = DEFAULTS.headFingerprintBytes;
		let bytesRead = 0;
		// A session rendered from rows changes whole (its document is made again): it is stored whole again.
		if (old && !file.rendered && old.codec === codec && old.size > 0 && size >= old.size) {
			const head = await read(0, Math.min(fp, old.size));
			const tail = await read(Math.max(0, old.size - fp), old.size);
			bytesRead += head.length + tail.length;
			if (fingerprint(head) === old.head && fingerprint(tail) === old.tail) {
				if (size === old.size) {
					this.put(batch, { ...old, ...facts, mtimeMs, at: Date.now(), ...(mode !== undefined ? { mode } : {}) });
					return { how: "unchanged", bytesRead, bytesWritten: 0 };
				}
				const added = await writeCopy(this.dataPath(old.data), old, size, read);
				batch.files.add(this.dataPath(old.data));
				this.put(batch, { ...old, ...facts, ...added.fields, mtimeMs, at: Date.now(), ...(mode !== undefined ? { mode } : {}) });
				return { how: "appended", bytesRead: bytesRead + added.bytesRead, bytesWritten: added.bytesWritten };
			}
		}
		const data = copyName(file.path, old, codec);
		makePrivateDir(join(this.dir, "data", dirname(data)));
		batch.dirs.add(join(this.dir, "data", dirname(data)));
		const written = await writeCopy(this.dataPath(data), { codec, dataSize: 0, members: [], size: 0, head: "" }, size, read);
		batch.files.add(this.dataPath(data));
		const { path, root, agent, kind, spawnedBy, cwd } = file;
		this.put(batch, {
			path,
			root,
			...(agent ? { agent } : {}),
			...(kind ? { kind } : {}),
			...(spawnedBy ? { spawnedBy } : {}),
			...(cwd ? { cwd } : {}),
			...facts,
			mtimeMs,
			...(file.rendered ? { rowsStamp: file.size } : {}),
			data,
			codec,
			...written.fields,
			at: Date.now(),
			...(mode !== undefined ? { mode } : {}),
		});
		if (old) batch.replaced.push(old.data);
		return { how: "stored", bytesRead: bytesRead + written.bytesRead, bytesWritten: written.bytesWritten };
	}

	/** The manifest rewritten with one line per path, and data files no line names (left by killed writers) removed. */
	private compact(): void {
		this.manifest.compact();
		const named = new Set([...this.manifest.records.values()].map((r) => r.data));
		const root = join(this.dir, "data");
		for (const bucket of readdirSync(root)) {
			for (const name of readdirSync(join(root, bucket))) if (!named.has(`${bucket}/${name}`)) unlinkQuietly(join(root, bucket, name));
		}
	}
}

/** A session file's permission bits, for restore to give back. */
function modeOf(path: string): number | undefined {
	const st = statSync(path, { throwIfNoEntry: false });
	return st ? st.mode & 0o777 : undefined;
}

function unlinkQuietly(path: string): void {
	try {
		unlinkSync(path);
	} catch {
		// gone already
	}
}
