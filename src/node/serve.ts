/**
 * `lookback serve`: the viewer page, its scripts, the engine's wasm and the index file, on 127.0.0.1 only.
 * A fixed table of routes (no path ever reaches the filesystem but a session file the index holds, inside the
 * agents' folders, read by range for an export, or a gone one's copy in lookback's archive), GET and HEAD only, a
 * Host check against DNS rebinding, and nothing is ever written beside the index. The page reads a read-optimised
 * copy of the index (read-snapshot.ts) by HTTP ranges, so a query transfers a small part of a large file.
 *
 * Every route that carries session data (the index, a session file) needs the secret the server made at its start
 * and printed for its user, as Jupyter does: the URL it prints carries it (`?token=`), which the server trades for a
 * cookie of this port (HttpOnly, SameSite=Strict) and a redirect to the same page without it; a script sends it as
 * `Authorization: Bearer <token>`. Another local user, or a process that can reach 127.0.0.1 but not the terminal,
 * gets 403. The page's own files hold no session data and load without it.
 */

import { randomBytes, timingSafeEqual } from "node:crypto";
import { createReadStream, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { LookbackError } from "../core/index.js";
import { pageGzip, takesGzip } from "./page-gzip.js";
import { readSnapshots } from "./read-snapshot.js";
import type { ByteRanges, SnapshotReads } from "./snapshot-layout.js";

export interface ServeOptions {
	/** The index file handed to the page. */
	indexPath: string;
	/** Folder with the built viewer (dist/web). */
	webDir: string;
	/** Port on 127.0.0.1 (default: any free one). */
	port?: number;
	/** Who makes the read-optimised copy (default: this process; `lookback serve` has its indexer process make it). */
	makeSnapshot?: (indexPath: string, to: string) => Promise<SnapshotReads>;
	/**
	 * The real path of a session file the page may read ranges of (`/session-file?path=…`: an export's long
	 * messages whole), or undefined to refuse it. Without it, the route answers 404.
	 */
	sessionFile?: (path: string) => string | undefined;
	/**
	 * Session files the agents removed, read from lookback's archive (its copy's size and bytes [start, end)):
	 * `/session-file` answers for a gone session's path from here when no file is there any more.
	 */
	archived?: { sizeOf(path: string): number | undefined; readSync(path: string, start: number, end: number): Uint8Array | undefined };
	/** The secret the data routes need (default: 32 random bytes, new at every start). */
	token?: string;
	/** `serve --remote`: a team's bucket passed through under `/team/` (src/node/team/team-route.ts), with the token. */
	team?: (req: IncomingMessage, res: ServerResponse, key: string) => Promise<void>;
}

export interface Serving {
	/** Where it listens (`http://127.0.0.1:<port>/`): the page's files; its data needs the token. */
	url: string;
	/** The secret the index and session files need. */
	token: string;
	/** The URL for its user to open: `url` with the token, traded for a cookie at the first request. */
	openUrl: string;
	server: Server;
	close(): Promise<void>;
}

const TYPES: Record<string, string> = {
	".html": "text/html; charset=utf-8",
	".js": "text/javascript; charset=utf-8",
	".css": "text/css; charset=utf-8",
	".wasm": "application/wasm",
	".db": "application/octet-stream",
};

/** Nothing from a session may run as script or load anything: the page's own files, the wasm, and nothing else. */
const VIEWER_CSP =
	"default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The one byte range asked for, or "bad" (unsatisfiable or several ranges), or undefined for the whole file. */
function byteRange(header: string | undefined, size: number): { start: number; end: number } | "bad" | undefined {
	if (header === undefined) return undefined;
	const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
	if (!m || (m[1] === "" && m[2] === "")) return "bad";
	let start: number;
	let end: number;
	if (m[1] === "") {
		start = Math.max(0, size - Number(m[2]));
		end = size - 1;
	} else {
		start = Number(m[1]);
		end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
	}
	return start > end || start >= size ? "bad" : { start, end };
}

/** The value of one cookie of a request's Cookie header. */
function cookieOf(header: string | undefined, name: string): string | undefined {
	for (const part of (header ?? "").split(";")) {
		const at = part.indexOf("=");
		if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
	}
	return undefined;
}

export async function serveViewer(options: ServeOptions): Promise<Serving> {
	const token = options.token ?? randomBytes(32).toString("base64url");
	const secret = Buffer.from(token);
	const matches = (given: string | undefined) => {
		if (given === undefined) return false;
		const bytes = Buffer.from(given);
		return bytes.length === secret.length && timingSafeEqual(bytes, secret);
	};
	let cookieName = "lookback-token";
	const authorized = (req: IncomingMessage) => {
		const bearer = /^Bearer (\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
		return matches(bearer) || matches(cookieOf(req.headers.cookie, cookieName));
	};
	const snapshot = readSnapshots(options.indexPath, options.makeSnapshot);
	const page = (name: string) => join(options.webDir, name);
	const routes: Record<string, string> = {
		"/": page("index.html"),
		"/index.html": page("index.html"),
		"/boot.js": page("boot.js"),
		"/app.js": page("app.js"),
		"/app.css": page("app.css"),
		"/worker.js": page("worker.js"),
		"/sw.js": page("sw.js"),
		"/sql-wasm.wasm": page("sql-wasm.wasm"),
		"/index.db": snapshot.path,
	};
	let allowedHosts: Set<string> = new Set();
	const gzipOf = pageGzip();
	/** The page's own files: sent gzipped when the browser takes it (page-gzip.ts). */
	const pageFiles = new Set(Object.entries(routes).flatMap(([route, file]) => (route === "/index.db" ? [] : [file])));

	const answer = async (req: IncomingMessage, res: ServerResponse) => {
		const reply = (status: number, message: string, headers: Record<string, string> = {}) => {
			res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers });
			res.end(`${message}\n`);
		};
		if (req.method !== "GET" && req.method !== "HEAD") return reply(405, "lookback serve only reads");
		if (!allowedHosts.has(req.headers.host ?? "")) return reply(403, "foreign Host header");
		const url = new URL(req.url ?? "/", "http://127.0.0.1");
		const path = url.pathname;
		const given = url.searchParams.get("token");
		if (given !== null) {
			if (!matches(given)) return reply(403, "wrong token: open the URL lookback serve printed");
			// The token is traded for a cookie of this server, and the page opened again without it in its address.
			url.searchParams.delete("token");
			res.writeHead(303, {
				location: `${path}${url.search}`,
				"set-cookie": `${cookieName}=${token}; Path=/; HttpOnly; SameSite=Strict`,
				"cache-control": "no-store",
			});
			return res.end();
		}
		const refused = () => reply(403, "lookback serve hands out sessions only with the token it printed: open the URL it printed");
		// A team's shards are session data too.
		if (options.team && path.startsWith("/team/")) {
			if (!authorized(req)) return refused();
			return options.team(req, res, path.slice("/team/".length));
		}
		const asked = url.searchParams.get("path");
		const file =
			path === "/session-file"
				? asked
					? options.sessionFile?.(asked)
					: undefined
				: Object.hasOwn(routes, path)
					? routes[path]
					: undefined;
		if ((path === "/index.db" || path === "/session-file") && !authorized(req)) return refused();
		if (!file) return reply(404, "not found");
		const isIndex = path === "/index.db";
		let size: number;
		let mtimeMs = 0;
		/** A gone session's copy in the archive, read in place of its file. */
		let copy: ServeOptions["archived"];
		try {
			if (isIndex) await snapshot.refresh();
			({ size, mtimeMs } = statSync(file));
		} catch (error) {
			if (error instanceof LookbackError) return reply(503, error.message);
			const copied = path === "/session-file" ? options.archived?.sizeOf(file) : undefined;
			if (copied === undefined) return reply(404, isIndex ? "no index yet: run lookback index" : "not found");
			size = copied;
			copy = options.archived;
		}
		const headers: Record<string, string> = {
			"content-type": TYPES[file.slice(file.lastIndexOf("."))] ?? "application/octet-stream",
			"cache-control": "no-store",
			"x-content-type-options": "nosniff",
			"content-security-policy": VIEWER_CSP,
		};
		if (pageFiles.has(file) && takesGzip(req.headers["accept-encoding"])) {
			let body: Buffer;
			try {
				body = await gzipOf(file, `${size} ${mtimeMs}`);
			} catch {
				return reply(404, "not found");
			}
			res.writeHead(200, { ...headers, "content-encoding": "gzip", vary: "accept-encoding", "content-length": String(body.length) });
			return res.end(req.method === "HEAD" ? undefined : body);
		}
		let range: ReturnType<typeof byteRange>;
		if (isIndex) {
			headers["accept-ranges"] = "bytes";
			headers.etag = snapshot.etag;
			// What the page may fetch ahead while the person reads: the parts of the file nearly every query reads.
			const named = (ranges: ByteRanges) => ranges.map(([a, b]) => `${a}-${b - 1}`).join(",");
			if (snapshot.prefetch.length > 0) headers["x-lookback-prefetch"] = named(snapshot.prefetch);
			// What the page reads before it opens the index (snapshot-layout.ts).
			if (snapshot.open.length > 0) headers["x-lookback-open"] = named(snapshot.open);
			// A range of another version of the file would mix two files: If-Range that does not match gets the whole new file.
			const ifRange = req.headers["if-range"];
			range = ifRange === undefined || ifRange === snapshot.etag ? byteRange(req.headers.range, size) : undefined;
		} else if (path === "/session-file") {
			headers["accept-ranges"] = "bytes";
			range = byteRange(req.headers.range, size);
		}
		if (range === "bad") return reply(416, "range not satisfiable", { "content-range": `bytes */${size}` });
		if (range) {
			headers["content-range"] = `bytes ${range.start}-${range.end}/${size}`;
			headers["content-length"] = String(range.end - range.start + 1);
			res.writeHead(206, headers);
		} else {
			headers["content-length"] = String(size);
			res.writeHead(200, headers);
		}
		if (req.method === "HEAD") return res.end();
		if (copy) return res.end(copy.readSync(file, range ? range.start : 0, range ? range.end + 1 : size));
		createReadStream(file, range ? { start: range.start, end: range.end } : {}).pipe(res);
	};

	const server = createServer((req, res) => {
		answer(req, res).catch((error: unknown) => {
			if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
			res.end(`lookback serve: ${(error as Error).message}\n`);
		});
	});
	await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
	const port = (server.address() as AddressInfo).port;
	allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
	// Cookies are not kept apart by port: each server's is named by its own.
	cookieName = `lookback-token-${port}`;
	return {
		url: `http://127.0.0.1:${port}/`,
		token,
		openUrl: `http://127.0.0.1:${port}/?token=${token}`,
		server,
		close: () =>
			new Promise<void>((done) =>
				server.close(() => {
					snapshot.remove();
					done();
				}),
			),
	};
}
