/**
 * Session files on disk as a session source: the walk of every root (walk-roots.ts: Pi's
 * `<agentDir>/sessions/<encoded-cwd>/*.jsonl`, a flat custom session dir, each other agent's layout), reading
 * their bytes, and rendering a session an agent keeps as rows. A root that cannot be listed fully is reported, so
 * nothing under it is purged.
 */

import { realpathSync } from "node:fs";
import { open } from "node:fs/promises";
import { join, sep } from "node:path";
import { nodeAgent } from "../agents/node-registry.js";
import { type AgentKind, isBesideFile, LookbackError, type SessionSource } from "../core/index.js";
import { sessionPathInRoots } from "./paths.js";
import { type SessionRoot, walkRoots } from "./walk-roots.js";

export type { SessionRoot } from "./walk-roots.js";

function realOrSame(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return path;
	}
}

/** A session source over folders on disk. */
export function fileSource(roots: SessionRoot[], leaveOut: readonly AgentKind[] = []): SessionSource {
	// A folder named twice (PI_CODING_AGENT_DIR is shared by Pi and omp) is walked once: no file is indexed twice.
	const real = roots.map((r) => ({ ...r, path: realOrSame(r.path) })).filter((r, i, all) => all.findIndex((o) => o.path === r.path) === i);
	const rootPaths = real.map((r) => r.path);
	return {
		describe: () => rootPaths.join(", "),
		roots: () => rootPaths,
		leftOut: () => leaveOut,
		async readBeside(root, relative, max) {
			// Only what an agent keeps beside its sessions (isBesideFile), inside a walked root: never any other file.
			if (!rootPaths.includes(root) || !isBesideFile(relative)) return undefined;
			try {
				const handle = await open(join(root, ...relative.split("/")), "r");
				try {
					const buffer = new Uint8Array(max);
					const { bytesRead } = await handle.read(buffer, 0, max, 0);
					return buffer.subarray(0, bytesRead);
				} finally {
					await handle.close();
				}
			} catch {
				return undefined;
			}
		},
		walk: () => walkRoots(real),
		async readDocument(path) {
			const under = real.filter(
				(root) => path === root.path || path.startsWith(root.path.endsWith(sep) ? root.path : `${root.path}${sep}`),
			);
			if (under.length === 0 || path.split(sep).includes(".."))
				throw new LookbackError("path-outside-roots", `refusing "${path}": it is not inside the session folders`);
			// Rendered by the agent that keeps its sessions as rows there (OpenCode's database).
			const store = under.map((root) => (root.agent ? nodeAgent(root.agent).store : undefined)).find((s) => s !== undefined);
			if (!store) throw new LookbackError("session-not-found", `no session is kept as rows at ${path}`);
			return store.readDocument(path);
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
