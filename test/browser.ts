/** A real Chromium (chromium.mjs) and a static server on 127.0.0.1. */

import { readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";

export { CHROMIUM, launchChromium } from "./chromium.mjs";

const TYPES: Record<string, string> = {
	".html": "text/html",
	".js": "text/javascript",
	".css": "text/css",
	".wasm": "application/wasm",
	".json": "application/json",
};

/** Serve `routes` (URL prefix → folder) and fixed bodies on 127.0.0.1, like any static host; resolves with the base URL. */
export async function serve(routes: Record<string, string>, bodies: Record<string, string> = {}): Promise<{ url: string; server: Server }> {
	const server = createServer((req, res) => {
		const asked = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
		const path = asked.endsWith("/") ? `${asked}index.html` : asked; // a folder's page, as static hosts answer
		if (bodies[path] !== undefined) {
			res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "text/plain" });
			res.end(bodies[path]);
			return;
		}
		for (const [prefix, dir] of Object.entries(routes)) {
			if (!path.startsWith(prefix)) continue;
			const file = normalize(join(dir, path.slice(prefix.length)));
			if (!file.startsWith(normalize(dir))) break;
			try {
				if (!statSync(file).isFile()) break;
				res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
				res.end(readFileSync(file));
				return;
			} catch {
				break;
			}
		}
		res.writeHead(404).end();
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/**
 * A page of `lookback serve` as its user opens it: with the token it printed (`?token=`, which the server trades
 * for a cookie and a redirect to the same page without it). `url` may be relative to the server's.
 */
export function withToken(serving: { url: string; token: string }, url: string = serving.url): string {
	const at = new URL(url, serving.url);
	at.searchParams.set("token", serving.token);
	return at.href;
}

/** The header a script sends to `lookback serve` for its data (the index, a session file). */
export function tokenHeader(serving: { token: string }): Record<string, string> {
	return { authorization: `Bearer ${serving.token}` };
}
