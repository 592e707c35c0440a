/**
 * Session files on disk: every `<agentDir>/sessions/<encoded-cwd>/*.jsonl` plus a flat custom session dir.
 * A root that cannot be listed fully is reported, so nothing under it is purged.
 */

import { realpathSync } from "node:fs";
import { open, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import {
	isTmpSessionFolder,
	type SessionFileInfo,
	type SessionSource,
	type SkippedFile,
	type SyncWarning,
	type WalkResult,
} from "../core/index.js";
import { sessionPathInRoots } from "./paths.js";

export interface SessionRoot {
	path: string;
	/** `nested`: one folder per project (Pi's default layout); `flat`: files directly inside (a custom session dir). */
	layout: "nested" | "flat";
}

function realOrSame(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return path;
	}
}

const STAT_BATCH = 64;

async function statAll(paths: string[], root: string, files: SessionFileInfo[], skipped: SkippedFile[]): Promise<void> {
	for (let i = 0; i < paths.length; i += STAT_BATCH) {
		const batch = paths.slice(i, i + STAT_BATCH);
		const stats = await Promise.allSettled(batch.map((p) => stat(p)));
		stats.forEach((s, j) => {
			if (s.status === "fulfilled") {
				if (s.value.isFile()) files.push({ path: batch[j], root, size: s.value.size, mtimeMs: s.value.mtimeMs });
			} else {
				skipped.push({ path: batch[j], reason: "unreadable", detail: String((s.reason as Error).message) });
			}
		});
	}
}

async function jsonlIn(dir: string): Promise<string[]> {
	const entries = await readdir(dir, { withFileTypes: true });
	return entries.filter((e) => (e.isFile() || e.isSymbolicLink()) && e.name.endsWith(".jsonl")).map((e) => join(dir, e.name));
}

/** Walk one root; errors inside it make it incomplete but do not stop the walk. */
async function walkRoot(root: SessionRoot, result: WalkResult): Promise<void> {
	const paths: string[] = [];
	let complete = true;
	const problems: string[] = [];
	try {
		paths.push(...(await jsonlIn(root.path)));
		if (root.layout === "nested") {
			const folders = (await readdir(root.path, { withFileTypes: true })).filter((e) => e.isDirectory());
			for (const folder of folders) {
				const dir = join(root.path, folder.name);
				try {
					const inFolder = await jsonlIn(dir);
					if (isTmpSessionFolder(folder.name)) {
						for (const p of inFolder) result.skipped.push({ path: p, reason: "tmp-folder" });
					} else paths.push(...inFolder);
				} catch (error) {
					complete = false;
					problems.push(`${dir}: ${(error as Error).message}`);
				}
			}
		}
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") {
			(result.missingRoots ??= []).push(root.path);
			return;
		}
		complete = false;
		problems.push(`${root.path}: ${(error as Error).message}`);
	}
	await statAll(paths, root.path, result.files, result.skipped);
	if (complete) result.completeRoots.push(root.path);
	else result.warnings.push({ kind: "incomplete-walk", roots: [root.path], message: problems.slice(0, 3).join("; ") } satisfies SyncWarning);
}

/** A session source over folders on disk. */
export function fileSource(roots: SessionRoot[]): SessionSource {
	const real = roots.map((r) => ({ ...r, path: realOrSame(r.path) }));
	const rootPaths = real.map((r) => r.path);
	return {
		describe: () => rootPaths.join(", "),
		roots: () => rootPaths,
		async walk() {
			const result: WalkResult = { files: [], skipped: [], completeRoots: [], warnings: [] };
			for (const root of real) await walkRoot(root, result);
			return result;
		},
		async read(path, start, end) {
			sessionPathInRoots(path, rootPaths);
			const handle = await open(path, "r");
			try {
				const length = Math.max(0, end - start);
				const buffer = new Uint8Array(length);
				let got = 0;
				while (got < length) {
					const { bytesRead } = await handle.read(buffer, got, length - got, start + got);
					if (bytesRead === 0) break;
					got += bytesRead;
				}
				return got === length ? buffer : buffer.subarray(0, got);
			} finally {
				await handle.close();
			}
		},
	};
}
