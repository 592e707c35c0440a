/**
 * `lookback restore SESSION`: a session's file written back where its agent looks for it (and the sub-agent
 * transcripts it spawned), byte for byte the archive's last copy, so that `pi --session`, `omp --resume`,
 * `claude -r`, `codex resume` or `gemini --resume` picks it up again. It never overwrites: a file already there
 * with other bytes is refused, one with the same bytes is left as it is. The file is written beside its place
 * under a private name, synced, and linked in (which fails rather than replace a file that appeared meanwhile).
 * An OpenCode session lives in OpenCode's database, which lookback never writes: it is written to a new file
 * for `opencode import` instead: an agent whose restore differs says how (`NodeAgent.restore`, src/agents/opencode/node/restore.ts).
 */

import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readSync, statSync, unlinkSync, utimesSync, writeSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { nodeAgent } from "../agents/node-registry.js";
import type { OpencodeImport } from "../agents/opencode/node/restore.js";
import { DEFAULTS, LookbackError, type SessionSummary } from "../core/index.js";
import type { ArchiveRecord } from "./archive-manifest.js";
import { syncDir } from "./archive-manifest.js";
import type { FileArchive } from "./archive-store.js";
import type { NodeIndex } from "./open.js";

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
	/** An OpenCode session, which lookback never writes into OpenCode's database: what `opencode import` loads. */
	opencodeImport?: OpencodeImport;
}

function inside(path: string, roots: readonly string[]): boolean {
	return roots.some((root) => {
		const rel = relative(resolve(root), resolve(path));
		return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
	});
}

/** Whether the file at `path` holds exactly the archived bytes. */
function sameBytes(archive: FileArchive, record: ArchiveRecord, path: string): boolean {
	if (statSync(path).size !== record.size) return false;
	const fd = openSync(path, "r");
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

/** What is at a file's place now: nothing, the archived bytes, or another file. */
function placeOf(archive: FileArchive, record: ArchiveRecord): "free" | "in-place" | "taken" {
	if (!statSync(record.path, { throwIfNoEntry: false })) return "free";
	return sameBytes(archive, record, record.path) ? "in-place" : "taken";
}

/** Write one archived file back to its free place. */
function restoreFile(archive: FileArchive, record: ArchiveRecord): RestoredFile {
	const path = record.path;
	mkdirSync(dirname(path), { recursive: true });
	const temp = join(dirname(path), `.${basename(path)}.lookback-restore-${process.pid}`);
	const fd = openSync(temp, "w");
	try {
		for (let at = 0; at < record.size; at += DEFAULTS.readChunkBytes) {
			const bytes = archive.readSync(path, at, Math.min(record.size, at + DEFAULTS.readChunkBytes));
			if (!bytes || bytes.length === 0) throw new LookbackError("io", `the archive's copy of ${path} ends early, at byte ${at}`);
			for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done, at + done);
		}
		fsyncSync(fd);
	} catch (error) {
		closeSync(fd);
		unlinkSync(temp);
		throw error;
	}
	closeSync(fd);
	try {
		// The agent lists sessions by time: the file keeps the time it had.
		utimesSync(temp, new Date(record.mtimeMs), new Date(record.mtimeMs));
		linkSync(temp, path);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "EEXIST")
			throw new LookbackError("file-exists", `refusing to restore ${path}: a file appeared there meanwhile`);
		throw error;
	} finally {
		unlinkSync(temp);
	}
	syncDir(dirname(path));
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
		if (r && !inside(r.path, roots))
			throw new LookbackError(
				"path-outside-roots",
				`refusing to restore ${r.path}: it is not inside the session folders this lookback reads (${roots.join(", ")})`,
			);
	}
	const held = records.filter((r): r is ArchiveRecord => r !== undefined);
	const places = held.map((r) => placeOf(archive, r));
	if (places[0] === "taken")
		throw new LookbackError(
			"file-exists",
			`refusing to restore ${held[0].path}: a different file is there (lookback never overwrites a session file)`,
		);
	const restored = held.map((r, i): RestoredFile => {
		if (places[i] === "free") return restoreFile(archive, r);
		return { path: r.path, bytes: r.size, outcome: places[i] === "in-place" ? "in-place" : "left" };
	});
	return { session, files: restored, resumeHint: session.resumeHint };
}

/** A session named by id, id prefix or path written back from the archive (with its sub-agents' transcripts). */
export function restoreIndexed(opened: NodeIndex, ref: string): RestoreReply {
	return restoreSession(opened.archive, opened.index.matching({ session: ref }), opened.source.roots());
}
