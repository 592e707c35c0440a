/** The page's side of the worker: each call a promise of its reply. */

import { ENGINE_FROM_PAGE, type EngineWasmMessage } from "./engine-wasm.js";
import type { CallMessage, CallName, Calls, ProgressMessage, ReplyMessage } from "./protocol.js";

class CallError extends Error {
	constructor(
		message: string,
		readonly code?: string,
	) {
		super(message);
	}
}

export interface Db {
	call<K extends CallName>(call: K, args: Parameters<Calls[K]>[0]): Promise<ReturnType<Calls[K]>>;
	/** Progress of the worker's indexing, to whoever listens (one listener). */
	onProgress?: (progress: ProgressMessage["progress"]) => void;
}

/**
 * Start the worker at `workerUrl`; with `engineWasm`, the engine's wasm compiled here, posted to the worker as its
 * first message (early-wasm.ts).
 */
export function startDb(workerUrl = "worker.js", engineWasm?: Promise<WebAssembly.Module>): Db {
	const worker = new Worker(workerUrl, { type: "module", ...(engineWasm ? { name: ENGINE_FROM_PAGE } : {}) });
	engineWasm?.then(
		(module) => worker.postMessage({ engineWasm: module } satisfies EngineWasmMessage),
		() => worker.postMessage({ engineWasm: null } satisfies EngineWasmMessage),
	);
	const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
	let next = 0;
	worker.onmessage = (event: MessageEvent<ReplyMessage | ProgressMessage>) => {
		if ("progress" in event.data) return db.onProgress?.(event.data.progress);
		const reply = event.data;
		const w = waiting.get(reply.id);
		waiting.delete(reply.id);
		if (reply.ok) w?.resolve(reply.value);
		else w?.reject(new CallError(reply.error, reply.code));
	};
	const db: Db = {
		call(call, args) {
			const id = ++next;
			const message: CallMessage = { id, call, args };
			return new Promise((resolve, reject) => {
				waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
				worker.postMessage(message);
			});
		},
	};
	return db;
}
