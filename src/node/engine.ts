/**
 * Loads lookback's own engine build (wasm/dist: sql.js with FTS5 and Emscripten's FS exported) in Node or
 * Bun, with its `fcntl` lock calls answered by lookback's lock files for the index files opened in place.
 * The build is checked against the checksums committed beside it: any other build is refused.
 */

import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { EngineIoCounters, FilesEngine } from "../core/index.js";
import { checkEngine, LookbackError } from "../core/index.js";
import { answerLockCall, FCNTL_LOCK_COMMANDS } from "./engine-locks.js";
import type { IndexLocks } from "./index-locks.js";

const require = createRequire(import.meta.url);

/** The engine module with what lookback's build adds to stock sql.js. */
export type NodeEngine = FilesEngine & {
	HEAP16: Int16Array;
};

/**
 * One engine per process, kept on the process rather than on this module: Pi loads an extension's modules
 * anew for every session, while the glue (a CommonJS module) and its wasm instance stay, with the lock hook
 * that the first load installed. Every load of this module must see that hook's registry and that engine.
 */
const processWide = ((globalThis as { [key: symbol]: unknown })[Symbol.for("lookback.engine")] ??= {
	engines: new Map<string, Promise<NodeEngine>>(),
	lockRegistry: new Map<string, IndexLocks>(),
	hostIo: { reads: 0, bytesRead: 0, writes: 0, fsyncs: 0 },
}) as { engines: Map<string, Promise<NodeEngine>>; lockRegistry: Map<string, IndexLocks>; hostIo: EngineIoCounters };

/** Locks of the index files opened in place, by host path; the fcntl hook looks them up. */
export const lockRegistry = processWide.lockRegistry;
/** Counted page I/O of the files opened in place. */
export const hostIo: EngineIoCounters = processWide.hostIo;

/** The folder holding sql-wasm.cjs, sql-wasm.wasm and SHA256SUMS, from the sources or from dist/. */
export function engineDir(): string {
	for (const relative of ["../../wasm/dist/", "../wasm/dist/"]) {
		const dir = fileURLToPath(new URL(relative, import.meta.url));
		if (existsSync(`${dir}SHA256SUMS`)) return dir;
	}
	throw new LookbackError("engine-missing-feature", "lookback's engine build (wasm/dist) is missing from this install");
}

/** Refuse any build but the one whose checksums are committed beside it. */
function verifyBuild(dir: string, name: string, bytes: Uint8Array): void {
	const sums = readFileSync(`${dir}SHA256SUMS`, "utf8");
	const expected = new RegExp(`^([0-9a-f]{64})\\s+\\*?${name.replace(".", "\\.")}$`, "m").exec(sums)?.[1];
	const actual = createHash("sha256").update(bytes).digest("hex");
	if (expected !== actual) {
		throw new LookbackError(
			"engine-missing-feature",
			`${dir}${name} is not lookback's engine build (sha256 ${actual.slice(0, 12)}…, expected ${expected?.slice(0, 12) ?? "none"}…); reinstall lookback`,
		);
	}
}

/** The engine (loaded once per process), checked: lookback's build, FTS5, trigram, contentless delete, FS, the lock hook. */
export function loadEngine(): Promise<NodeEngine> {
	return loadEngineFrom(engineDir());
}

/** The engine build in `dir` (a folder path ending in "/"), loaded once per process; refused unless it matches its checksums. */
export function loadEngineFrom(dir: string): Promise<NodeEngine> {
	let engine = processWide.engines.get(dir);
	if (!engine) {
		engine = instantiate(dir);
		processWide.engines.set(dir, engine);
		// A refused build is not kept: the error is said again to whoever asks next.
		engine.catch(() => processWide.engines.delete(dir));
	}
	return engine;
}

async function instantiate(dir: string): Promise<NodeEngine> {
	const wasmBinary = readFileSync(`${dir}sql-wasm.wasm`);
	verifyBuild(dir, "sql-wasm.wasm", wasmBinary);
	verifyBuild(dir, "sql-wasm.cjs", readFileSync(`${dir}sql-wasm.cjs`));
	const initSqlJs = require(`${dir}sql-wasm.cjs`) as (options: object) => Promise<NodeEngine>;
	let engine: NodeEngine | undefined;
	let hooked = false;
	let fail: (error: unknown) => void = () => undefined;
	const failed = new Promise<never>((_, reject) => (fail = reject));
	const instantiateWasm = (
		imports: Record<string, Record<string, unknown>>,
		receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
	) => {
		for (const module of Object.values(imports)) {
			for (const [key, fn] of Object.entries(module)) {
				if (typeof fn !== "function" || fn.name !== "___syscall_fcntl64") continue;
				const fcntl = fn as (fd: number, cmd: number, varargs: number) => number;
				module[key] = (fd: number, cmd: number, varargs: number) => {
					if (engine && FCNTL_LOCK_COMMANDS.has(cmd)) {
						const node = engine.FS.getStream(fd)?.node;
						const locks = node?.backend === undefined ? undefined : lockRegistry.get(join(node.backend, node.file));
						if (locks) return answerLockCall(locks, engine, cmd, engine.HEAP32[varargs >>> 2] >>> 0);
					}
					return fcntl(fd, cmd, varargs);
				};
				hooked = true;
			}
		}
		if (!hooked) fail(new LookbackError("engine-missing-feature", "the engine build has no fcntl import to back its file locks"));
		else
			WebAssembly.instantiate(wasmBinary, imports as WebAssembly.Imports).then((result) => receive(result.instance, result.module), fail);
		return {};
	};
	engine = await Promise.race([initSqlJs({ wasmBinary, instantiateWasm }), failed]);
	if (!hooked || typeof engine.FS?.mount !== "function" || typeof engine.FS.hashRemoveNode !== "function") {
		throw new LookbackError("engine-missing-feature", "the engine build does not export the filesystem lookback opens its index through");
	}
	checkEngine(engine);
	return engine;
}
