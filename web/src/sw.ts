/**
 * The service worker that keeps the page's own files (never an index, never a session): network first, so a
 * server that is up always hands out its current page, and the kept copy when no server answers, so that the
 * page opens with the index this browser keeps after the server that gave it is gone.
 */

const CACHE = "lookback-page-v1";
const PAGE = ["./", "index.html", "boot.js", "app.js", "app.css", "worker.js", "sql-wasm.wasm"];

interface ExtendableEvent extends Event {
	waitUntil(work: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
	request: Request;
	respondWith(response: Promise<Response>): void;
}
const worker = self as unknown as {
	location: Location;
	registration: { scope: string };
	skipWaiting(): Promise<void>;
	clients: { claim(): Promise<void> };
	addEventListener(type: "install" | "activate", listener: (event: ExtendableEvent) => void): void;
	addEventListener(type: "fetch", listener: (event: FetchEvent) => void): void;
};

worker.addEventListener("install", (event) => {
	event.waitUntil(
		caches
			.open(CACHE)
			.then((cache) => cache.addAll(PAGE))
			.then(() => worker.skipWaiting()),
	);
});

worker.addEventListener("activate", (event) => {
	event.waitUntil(worker.clients.claim());
});

worker.addEventListener("fetch", (event) => {
	const { request } = event;
	if (request.method !== "GET") return;
	const scope = new URL(worker.registration.scope);
	const url = new URL(request.url);
	const name =
		url.origin === scope.origin && url.pathname.startsWith(scope.pathname) ? url.pathname.slice(scope.pathname.length) : undefined;
	const isPage = request.mode === "navigate" || name === "" || name === "index.html";
	if (!isPage && (name === undefined || !PAGE.includes(name))) return; // the index and everything else: straight to the network
	const key = isPage ? scope.href : url.href;
	event.respondWith(
		(async () => {
			const cache = await caches.open(CACHE);
			try {
				const fresh = await fetch(request);
				if (fresh.ok) await cache.put(key, fresh.clone());
				return fresh;
			} catch (error) {
				const kept = await cache.match(key);
				if (kept) return kept;
				throw error;
			}
		})(),
	);
});
