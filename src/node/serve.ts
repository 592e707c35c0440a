/**
 * `lookback serve`: the viewer page, its script, the engine's wasm and the index file, on 127.0.0.1 only.
 * A fixed table of routes (no path ever reaches the filesystem), GET and HEAD only, a Host check against
 * DNS rebinding, and nothing is ever written beside the index. Other processes commit to the index in place,
 * so the page gets a copy taken under a SHARED lock (a consistent file), made again only when it changed.
 */

import { copyFileSync, createReadStream, mkdtempSync, renameSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { LookbackError } from "../core/index.js";
import { lockWaits, waitFor } from "./engine-locks.js";
import { IndexLocks } from "./index-locks.js";

export interface ServeOptions {
	/** The index file handed to the page. */
	indexPath: string;
	/** Folder with index.html, app.js and sql-wasm.wasm (dist/web). */
	webDir: string;
	/** Port on 127.0.0.1 (default: any free one). */
	port?: number;
}

export interface Serving {
	url: string;
	server: Server;
	close(): Promise<void>;
}

const TYPES: Record<string, string> = { ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".wasm": "application/wasm", ".db": "application/octet-stream" };

/** A consistent copy of the index in a private folder, taken again whenever the index changed. */
function indexSnapshots(indexPath: string) {
	const dir = mkdtempSync(join(tmpdir(), "lookback-serve-"));
	const copy = join(dir, "index.db");
	const locks = new IndexLocks(resolve(indexPath));
	let copiedFrom = "";
	return {
		path: copy,
		refresh(): void {
			const st = statSync(indexPath);
			const stamp = `${st.ino} ${st.size} ${st.mtimeMs}`;
			if (stamp === copiedFrom) return;
			if (!waitFor(() => locks.shared(), lockWaits.readMs)) throw new LookbackError("index-busy", "the index is busy: another process kept it locked for too long; try again");
			try {
				copyFileSync(indexPath, `${copy}.tmp`);
				renameSync(`${copy}.tmp`, copy);
				copiedFrom = stamp;
			} finally {
				locks.release("none");
			}
		},
		remove: () => rmSync(dir, { recursive: true, force: true }),
	};
}

export async function serveViewer(options: ServeOptions): Promise<Serving> {
	const snapshots = indexSnapshots(options.indexPath);
	const routes: Record<string, string> = {
		"/": join(options.webDir, "index.html"),
		"/index.html": join(options.webDir, "index.html"),
		"/app.js": join(options.webDir, "app.js"),
		"/sql-wasm.wasm": join(options.webDir, "sql-wasm.wasm"),
		"/index.db": snapshots.path,
	};
	let allowedHosts: Set<string> = new Set();
	const server = createServer((req, res) => {
		const reply = (status: number, message: string) => {
			res.writeHead(status, { "content-type": "text/plain; charset=utf-8" });
			res.end(`${message}\n`);
		};
		if (req.method !== "GET" && req.method !== "HEAD") return reply(405, "lookback serve only reads");
		if (!allowedHosts.has(req.headers.host ?? "")) return reply(403, "foreign Host header");
		const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
		const file = Object.hasOwn(routes, path) ? routes[path] : undefined;
		if (!file) return reply(404, "not found");
		let size: number;
		try {
			if (path === "/index.db") snapshots.refresh();
			size = statSync(file).size;
		} catch (error) {
			if (error instanceof LookbackError) return reply(503, error.message);
			return reply(404, path === "/index.db" ? "no index yet: run lookback index" : "not found");
		}
		res.writeHead(200, {
			"content-type": TYPES[file.slice(file.lastIndexOf("."))] ?? "application/octet-stream",
			"content-length": String(size),
			"cache-control": "no-store",
			"x-content-type-options": "nosniff",
			"content-security-policy": "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'",
		});
		if (req.method === "HEAD") return res.end();
		createReadStream(file).pipe(res);
	});
	await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
	const port = (server.address() as AddressInfo).port;
	allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
	return {
		url: `http://127.0.0.1:${port}/`,
		server,
		close: () =>
			new Promise<void>((done) =>
				server.close(() => {
					snapshots.remove();
					done();
				}),
			),
	};
}
