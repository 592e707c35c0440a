/**
 * `lookback serve --remote URL`: the team's bucket passed through the server's own `/team/` route, so that the page
 * reads every shard by ranges from its own origin (its CSP allows no other) while the credentials stay in the server
 * (signed here with the standard AWS settings, store.ts). Only the objects a team has are answered: its listing,
 * each shard's manifest and packs, by name; GET and HEAD only, one byte range at a time.
 */

import type { IncomingMessage, ServerResponse } from "node:http";
import { errorMessage, LookbackError } from "../../core/errors.js";
import type { Env } from "../home.js";
import { storeOf } from "./store.js";

const KEYS = /^(lookback-team\.json|shards\/[A-Za-z0-9][A-Za-z0-9._-]{0,63}\/(manifest\.json|packs\/[0-9a-f]{32}\.pack))$/;

export type TeamRoute = (req: IncomingMessage, res: ServerResponse, key: string) => Promise<void>;

export function teamRoute(url: string, env: Env = process.env): TeamRoute {
	const store = storeOf(url, env);
	return async (req, res, key) => {
		const headers = { "cache-control": "no-store", "x-content-type-options": "nosniff" };
		if (!KEYS.test(key)) {
			res.writeHead(404, { ...headers, "content-type": "text/plain; charset=utf-8" });
			res.end("not found\n");
			return;
		}
		const type = key.endsWith(".json") ? "application/json" : "application/octet-stream";
		try {
			const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? "");
			if (range) {
				const [start, end] = [Number(range[1]), Number(range[2]) + 1];
				if (end <= start || end - start > 64 << 20) throw new LookbackError("bad-argument", "range not satisfiable");
				const body = await store.getRange(key, start, end);
				res.writeHead(206, {
					...headers,
					"content-type": type,
					"content-range": `bytes ${start}-${end - 1}/*`,
					"content-length": body.length,
				});
				res.end(req.method === "HEAD" ? undefined : body);
				return;
			}
			const body = await store.get(key);
			if (!body) {
				res.writeHead(404, { ...headers, "content-type": "text/plain; charset=utf-8" });
				res.end("not found\n");
				return;
			}
			res.writeHead(200, { ...headers, "content-type": type, "content-length": body.length });
			res.end(req.method === "HEAD" ? undefined : body);
		} catch (error) {
			res.writeHead(502, { ...headers, "content-type": "text/plain; charset=utf-8" });
			res.end(`${errorMessage(error)}\n`);
		}
	};
}
