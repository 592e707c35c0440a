/**
 * lookback's cross-process lock protocol for an index opened in place: SQLite's own lock levels kept as
 * files in `<index>.locks/`, so that every engine and every process (CLI, each Pi and omp window, the
 * server) sees the same locks. The wasm engine's own `fcntl` locks are no-ops, and a native engine's are
 * invisible to it, so neither can be trusted; these files can.
 *
 *   shared/<pid>.<start>.<nonce>.<boot>   one empty file per SHARED holder (readers, many)
 *   reserved                               one writer that intends to commit (readers go on)
 *   pending                                that writer now waits for readers to leave (no new readers)
 *   breaking                               held only while removing a dead owner's reserved or pending
 *   indexer                                the one process running a sync on its own (its progress in indexer.json)
 *
 * EXCLUSIVE is `pending` held with no other live shared file. `indexer` is no SQLite level: it is held for a
 * whole sync, so that one process indexes while the others follow its progress instead of parsing the same
 * files in turn (src/node/indexer-slot.ts). `reserved`, `pending`, `indexer` and `breaking` are created atomically (a private temp file `link()`ed in, EEXIST = taken) and hold "pid start nonce boot".
 * A dead owner's files are removed by whoever finds them; a file is only ever removed by its owner or,
 * once its owner is dead, under `breaking` and only if its content is unchanged.
 */

import { linkSync, mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PRIVATE_DIR, PRIVATE_FILE } from "./private-files.js";
import { type ProcessIdentity, processLives, SELF } from "./process-identity.js";

export type LockSlot = "shared" | "reserved" | "pending";
/** The files taken by one owner at a time. */
type OwnedSlot = "reserved" | "pending" | "indexer";

interface Owner extends ProcessIdentity {
	nonce: string;
	line: string;
}

function parseOwner(line: string): Owner | undefined {
	const [pid, start, nonce, boot] = line.trim().split(" ");
	if (!(Number(pid) > 0) || !start || !nonce || !boot) return undefined;
	return { pid: Number(pid), start, nonce, boot, line };
}

function removeQuietly(path: string): boolean {
	try {
		unlinkSync(path);
		return true;
	} catch {
		return false;
	}
}

/** Counters of what the locks did, for tests and the benchmark. */
export interface LockCounters {
	busy: number;
	reaped: number;
}

/** One process's locks on one index file. Never blocks: a level that cannot be had now returns false. */
export class IndexLocks {
	readonly dir: string;
	private readonly sharedDir: string;
	private readonly nonce = Math.random().toString(36).slice(2, 10);
	private readonly line: string;
	private readonly sharedFile: string;
	readonly held = { shared: false, reserved: false, pending: false, exclusive: false, indexer: false };
	readonly counters: LockCounters = { busy: 0, reaped: 0 };

	constructor(indexPath: string) {
		this.dir = `${indexPath}.locks`;
		this.sharedDir = join(this.dir, "shared");
		this.line = `${SELF.pid} ${SELF.start} ${this.nonce} ${SELF.boot}`;
		this.sharedFile = join(this.sharedDir, `${SELF.pid}.${SELF.start}.${this.nonce}.${SELF.boot}`);
	}

	private ensureDir(): void {
		mkdirSync(this.sharedDir, { recursive: true, mode: PRIVATE_DIR });
	}

	private owner(name: string): Owner | undefined {
		try {
			return parseOwner(readFileSync(join(this.dir, name), "utf8"));
		} catch {
			return undefined;
		}
	}

	private mine(owner: Owner | undefined): boolean {
		return owner !== undefined && owner.pid === SELF.pid && owner.nonce === this.nonce;
	}

	/** The live owner of `name` other than this one; a dead owner's file is removed. */
	private liveOther(name: OwnedSlot): Owner | undefined {
		const owner = this.owner(name);
		if (!owner || this.mine(owner)) return undefined;
		if (processLives(owner)) return owner;
		this.breakStale(name, owner.line);
		return undefined;
	}

	private breakStale(name: string, line: string): void {
		if (!this.createOwned("breaking")) {
			const breaker = this.owner("breaking");
			if (breaker && !processLives(breaker)) removeQuietly(join(this.dir, "breaking"));
			return;
		}
		try {
			if (this.owner(name)?.line === line && removeQuietly(join(this.dir, name))) this.counters.reaped++;
		} finally {
			removeQuietly(join(this.dir, "breaking"));
		}
	}

	/** Create `name` holding this owner's line, atomically; false when it exists. */
	private createOwned(name: string): boolean {
		this.ensureDir();
		const temp = join(this.dir, `.tmp.${SELF.pid}.${this.nonce}`);
		writeFileSync(temp, this.line, { flag: "wx", mode: PRIVATE_FILE });
		try {
			linkSync(temp, join(this.dir, name));
			return true;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
			return false;
		} finally {
			removeQuietly(temp);
		}
	}

	/** Take `name` unless a live other holds it (a dead holder's file is removed first). */
	private take(name: OwnedSlot): boolean {
		for (let attempt = 0; attempt < 3; attempt++) {
			if (this.createOwned(name)) return true;
			const owner = this.owner(name);
			if (this.mine(owner)) return true;
			if (owner && processLives(owner)) return false;
			if (owner) this.breakStale(name, owner.line);
		}
		return false;
	}

	private drop(name: OwnedSlot): void {
		if (this.mine(this.owner(name))) removeQuietly(join(this.dir, name));
	}

	private busy(): false {
		this.counters.busy++;
		return false;
	}

	/** Other live SHARED holders; dead ones' files are removed. */
	liveReaders(): number {
		let live = 0;
		let names: string[];
		try {
			names = readdirSync(this.sharedDir);
		} catch {
			return 0;
		}
		for (const name of names) {
			const full = join(this.sharedDir, name);
			if (full === this.sharedFile) continue;
			const [pid, start, nonce, boot] = name.split(".");
			if (processLives({ pid: Number(pid), start: start ?? "-", boot: boot ?? "-" }) && nonce) live++;
			else if (removeQuietly(full)) this.counters.reaped++;
		}
		return live;
	}

	/** Whether no other live process is about to commit (SQLite's transient read lock on PENDING). */
	pendingFree(): boolean {
		return this.held.pending || !this.liveOther("pending");
	}

	shared(): boolean {
		if (this.held.shared) return true;
		if (!this.pendingFree()) return this.busy();
		this.ensureDir();
		writeFileSync(this.sharedFile, "", { mode: PRIVATE_FILE });
		// Both sides write before they read, so a reader and a committing writer never both go ahead.
		if (!this.pendingFree()) {
			removeQuietly(this.sharedFile);
			return this.busy();
		}
		this.held.shared = true;
		return true;
	}

	reserved(): boolean {
		if (this.held.reserved) return true;
		if (!this.take("reserved")) return this.busy();
		this.held.reserved = true;
		return true;
	}

	pending(): boolean {
		if (this.held.pending) return true;
		if (!this.take("pending")) return this.busy();
		this.held.pending = true;
		return true;
	}

	/** PENDING held and no other live reader. A hot-journal rollback asks for it straight from SHARED. */
	exclusive(): boolean {
		if (!this.pending()) return false;
		if (this.liveReaders() > 0) return this.busy();
		this.held.exclusive = true;
		return true;
	}

	/** Back from EXCLUSIVE to SHARED, keeping RESERVED and PENDING (SQLite releases those separately). */
	downgrade(): void {
		this.held.exclusive = false;
	}

	releasePending(): void {
		if (!this.held.pending) return;
		this.drop("pending");
		this.held.pending = false;
		this.held.exclusive = false;
	}

	/** Down to SHARED ("shared") or to nothing ("none"). */
	release(level: "shared" | "none"): void {
		this.releasePending();
		if (this.held.reserved) {
			this.drop("reserved");
			this.held.reserved = false;
		}
		if (level === "none" && this.held.shared) {
			removeQuietly(this.sharedFile);
			this.held.shared = false;
		}
	}

	/** Take the `indexer` slot for a sync; false while another live process holds it. */
	indexer(): boolean {
		if (this.held.indexer) return true;
		if (!this.take("indexer")) return false;
		this.held.indexer = true;
		return true;
	}

	releaseIndexer(): void {
		if (!this.held.indexer) return;
		this.drop("indexer");
		this.held.indexer = false;
	}

	/** The live process other than this one holding `indexer`: its pid and the line its file holds. */
	indexerHolder(): { pid: number; line: string } | undefined {
		const owner = this.liveOther("indexer");
		return owner ? { pid: owner.pid, line: owner.line.trim() } : undefined;
	}

	/** The line this owner writes into the files it holds. */
	get ownerLine(): string {
		return this.line;
	}

	/** A truthful F_GETLK: the pid of a live lock that conflicts with `slot` taken for reading or writing, if any. */
	conflict(slot: LockSlot, write: boolean): number | undefined {
		if (slot === "reserved") return this.held.reserved ? undefined : this.liveOther("reserved")?.pid;
		if (slot === "pending") return this.held.pending ? undefined : this.liveOther("pending")?.pid;
		return write && this.liveReaders() > 0 ? 1 : undefined;
	}
}
