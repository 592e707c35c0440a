/**
 * `lookback restore SESSION`: a session's file written back where its agent looks for it (and the sub-agent
 * transcripts it spawned), byte for byte the archive's last copy, so that `pi --session`, `omp --resume`,
 * `claude -r`, `codex resume` or `gemini --resume` picks it up again. It never overwrites: a file already there
 * with other bytes is refused, one with the same bytes is left as it is. The file is written beside its place
 * under a random name, opened exclusively without following links, with the mode it had, synced, and linked in
 * (which fails rather than replace a file that appeared meanwhile); its folder's real path must lie inside the
 * real roots just before (a session folder swapped for a link out of them is refused).
 * An OpenCode session lives in OpenCode's database, which lookback never writes: it is written to a new file
 * for `opencode import` instead: an agent whose restore differs says how (`NodeAgent.restore`, src/agents/opencode/node/restore.ts).
 */

import {
	closeSync,
	constants,
	fsyncSync,
	futimesSync,
	linkSync,
	lstatSync,
	mkdirSync,
	openSync,
	readSync,
	realpathSync,
	statSync,
	unlinkSync,
	writeSync,
} from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { nodeAgent } from "../agents/node-registry.js";
import { DEFAULTS, LookbackError, type SessionSummary } from "../core/index.js";
import type { ArchiveRecord } from "./archive-manifest.js";
import { syncDir } from "./archive-manifest.js";
import type { FileArchive } from "./archive-store.js";
import type { NodeIndex } from "./open.js";
import { createExclusive, PRIVATE_DIR, PRIVATE_FILE, tempBeside } from "./private-files.js";

/** What became of one file. */
export interface RestoredFile {
	path: string;
	bytes: number;
	/**
	 * "written": put back (an OpenCode session: written to a new file for `opencode import`); "in-place": the same
	 * bytes were there already (OpenCode's database still holds the session); "left": a sub-agent's file with other
	 * bytes is there, left as it is.
	 */
	outcome: "written" | "in-place" | "left";
}

export interface RestoreReply {
	session: SessionSummary;
	files: RestoredFile[];
	/** The command that resumes it (an OpenCode session's imports the files written first). */
	resumeHint: string;
	/**
	 * A session of an agent whose store lookback never writes (OpenCode's, Kilo Code's database): the agent, its
	 * command that loads the files written, and what the archive's copy lacks.
	 */
	load?: RestoreLoad;
}

interface RestoreLoad {
	/** The agent's name and its command (`OpenCode`, `opencode`: its files are loaded by `opencode import`). */
	agent: { label: string; command: string };
	command: string;
	lost: { files: number; cutTexts: number };
}

/** Whether `path` lies strictly inside `root` (both real paths). */
function within(path: string, root: string): boolean {
	const rel = relative(root, path);
	return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}

/** A path's real path: its deepest existing folder's links resolved, the missing rest as named. */
function realAncestor(path: string): { real: string; missing: string[] } {
	const missing: string[] = [];
	for (let at = resolve(path); ; at = dirname(at)) {
		try {
			return { real: join(realpathSync(at), ...missing), missing };
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "ENOENT" || dirname(at) === at) throw error;
			missing.unshift(basename(at));
		}
	}
}

function refuseOutside(path: string, roots: readonly string[], why: string): LookbackError {
	return new LookbackError(
		"path-outside-roots",
		`refusing to restore ${path}: ${why} (the session folders this lookback reads: ${roots.join(", ")})`,
	);
}

/**
 * The folder a file is restored into, made where it is missing (private), its real path checked against the real
 * roots at each step: a folder of the path that is (or is swapped for) a link out of the roots is refused.
 * Returns the folder's real path.
 */
function placeInRoots(path: string, roots: readonly string[]): string {
	const folder = dirname(resolve(path));
	const realRoots = roots.map((root) => realAncestor(root).real);
	const inRoots = (dir: string) => realRoots.some((root) => dir === root || within(dir, root));
	// A folder made on the way may lie above a root that is gone with its sessions.
	const onTheWay = (dir: string) => inRoots(dir) || realRoots.some((root) => within(root, dir));
	const outside = () => refuseOutside(path, roots, "its folder is not inside the session folders once links are resolved");
	const { real, missing } = realAncestor(folder);
	if (!inRoots(real)) throw outside();
	let cursor = dirname(folder);
	for (let i = 1; i < missing.length; i++) cursor = dirname(cursor);
	for (const name of missing) {
		cursor = join(cursor, name);
		try {
			mkdirSync(cursor, { mode: PRIVATE_DIR });
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
		}
		if (!onTheWay(realpathSync(cursor))) throw outside();
	}
	const at = realpathSync(folder);
	if (!inRoots(at)) throw outside();
	return at;
}

/** Whether the file at `path` holds exactly the archived bytes. */
function sameBytes(archive: FileArchive, record: ArchiveRecord, path: string): boolean {
	if (statSync(path).size !== record.size) return false;
	const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
	try {
		const chunk = new Uint8Array(DEFAULTS.readChunkBytes);
		for (let at = 0; at < record.size; at += chunk.length) {
			const n = readSync(fd, chunk, 0, Math.min(chunk.length, record.size - at), at);
			const kept = archive.readSync(record.path, at, at + n);
			if (!kept || kept.length !== n || !Buffer.from(kept).equals(chunk.subarray(0, n))) return false;
		}
		return true;
	} finally {
		closeSync(fd);
	}
}

/** What is at a file's place now: nothing, the archived bytes, or another file (a link there is another file, never followed). */
function placeOf(archive: FileArchive, record: ArchiveRecord): "free" | "in-place" | "taken" {
	const st = lstatSync(record.path, { throwIfNoEntry: false });
	if (!st) return "free";
	if (!st.isFile()) return "taken";
	return sameBytes(archive, record, record.path) ? "in-place" : "taken";
}

/**
 * Write one archived file back to its free place: to a temp file beside it under a random name, created
 * exclusively without following a link, with the mode the file had (private when the archive did not record it),
 * synced, then linked in — which fails rather than replace a file (or link) that appeared meanwhile. The folder's
 * real path is checked against the real roots just before.
 */
function restoreFile(archive: FileArchive, record: ArchiveRecord, roots: readonly string[]): RestoredFile {
	const path = record.path;
	const dir = placeInRoots(path, roots);
	const target = join(dir, basename(path));
	const temp = tempBeside(target);
	const fd = createExclusive(temp, record.mode ?? PRIVATE_FILE);
	try {
		for (let at = 0; at < record.size; at += DEFAULTS.readChunkBytes) {
			const bytes = archive.readSync(path, at, Math.min(record.size, at + DEFAULTS.readChunkBytes));
			if (!bytes || bytes.length === 0) throw new LookbackError("io", `the archive's copy of ${path} ends early, at byte ${at}`);
			for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done, at + done);
		}
		fsyncSync(fd);
		// The agent lists sessions by time: the file keeps the time it had.
		futimesSync(fd, new Date(record.mtimeMs), new Date(record.mtimeMs));
	} catch (error) {
		closeSync(fd);
		unlinkSync(temp);
		throw error;
	}
	closeSync(fd);
	try {
		if (realpathSync(dirname(temp)) !== dir) throw refuseOutside(path, roots, "its folder was replaced while it was written");
		linkSync(temp, target);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "EEXIST")
			throw new LookbackError("file-exists", `refusing to restore ${path}: a file appeared there meanwhile`);
		throw error;
	} finally {
		unlinkSync(temp);
	}
	syncDir(dir);
	return { path, bytes: record.size, outcome: "written" };
}

/**
 * Write a session back from the archive: its file and the sub-agent transcripts it spawned (`sessions`: the
 * session first, as the index holds them), each inside one of `roots`. @throws LookbackError when it cannot.
 */
function restoreSession(archive: FileArchive, sessions: readonly SessionSummary[], roots: readonly string[]): RestoreReply {
	const session = sessions[0];
	archive.manifest.refresh();
	const records = sessions.map((s) => archive.manifest.records.get(s.path));
	if (!records[0])
		throw new LookbackError(
			"session-not-found",
			`the archive ${archive.dir} holds no copy of ${session.path}${archive.keeping ? "" : " (the archive is turned off)"}`,
		);
	const own = nodeAgent(session.agent).restore?.(archive, sessions, records);
	if (own) return own;
	for (const r of records) {
		if (r && !roots.some((root) => within(resolve(r.path), resolve(root))))
			throw refuseOutside(r.path, roots, "it is not inside the session folders");
	}
	const held = records.filter((r): r is ArchiveRecord => r !== undefined);
	const places = held.map((r) => placeOf(archive, r));
	if (places[0] === "taken")
		throw new LookbackError(
			"file-exists",
			`refusing to restore ${held[0].path}: a different file is there (lookback never overwrites a session file)`,
		);
	const restored = held.map((r, i): RestoredFile => {
		if (places[i] === "free") return restoreFile(archive, r, roots);
		return { path: r.path, bytes: r.size, outcome: places[i] === "in-place" ? "in-place" : "left" };
	});
	return { session, files: restored, resumeHint: session.resumeHint };
}

/** A session named by id, id prefix or path written back from the archive (with its sub-agents' transcripts). */
export function restoreIndexed(opened: NodeIndex, ref: string): RestoreReply {
	return restoreSession(opened.archive, opened.index.matching({ session: ref }), opened.source.roots());
}
