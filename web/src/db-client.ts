/** The page's side of the worker: each call a promise of its reply. */

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

export function startDb(workerUrl = "worker.js"): Db {
	const worker = new Worker(workerUrl, { type: "module" });
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
