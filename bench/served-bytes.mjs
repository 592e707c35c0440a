// What an HTTP server in this process sent for one path: requests, and bytes written to the socket for them
// (status line, headers and body), counted at the socket, not by the page that asked. Used by the served-mode
// test (in process) and by bench/browser-served.mjs (inside `lookback serve`, through served-bytes-preload.mjs).
//   const served = countServedBytes("/index.db"); … served.counts … served.before(Date.now() - 100) … served.stop();
import { subscribe, unsubscribe } from "node:diagnostics_channel";

const START = "http.server.request.start";

export function countServedBytes(pathname) {
	const counts = { requests: 0, bytes: 0 };
	/** Each request by the time it started (epoch ms), and its bytes once it ended. */
	const started = [];
	const onStart = ({ request, response, socket }) => {
		if (new URL(request.url ?? "/", "http://x").pathname !== pathname) return;
		counts.requests++;
		const entry = { at: Date.now(), bytes: 0 };
		started.push(entry);
		// One response at a time on a connection (HTTP/1.1, no pipelining from the browser): what the socket wrote
		// from this request's start to its response's end is this response. bytesWritten includes what is still queued.
		const before = socket.bytesWritten;
		let done = false;
		const end = () => {
			if (done) return;
			done = true;
			entry.bytes = socket.bytesWritten - before;
			counts.bytes += entry.bytes;
		};
		response.once("finish", end);
		response.once("close", end);
	};
	subscribe(START, onStart);
	/** The counts of the requests that started before `at` (epoch ms), as `counts` would have been then had each ended at once. */
	const before = (at) => {
		const then = started.filter((r) => r.at < at);
		return { requests: then.length, bytes: then.reduce((n, r) => n + r.bytes, 0) };
	};
	return { counts, before, stop: () => unsubscribe(START, onStart) };
}
