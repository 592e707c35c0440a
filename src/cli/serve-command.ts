/**
 * `lookback serve`: the viewer over HTTP on 127.0.0.1 (src/node/serve.ts), with the index kept fresh by its indexer
 * process. It hands out only what the index holds as sessions, and only to whoever has the token it prints.
 */

import type { LookbackIndex } from "../core/index.js";
import type { NodeIndex } from "../node/open.js";
import { sessionPathInRoots } from "../node/paths.js";
import { intOption, option, type ParsedArgs } from "./args.js";
import { type CliIO, indexOptions } from "./command-line.js";

/** Whether the index holds a session at this very path (no other file inside the roots: no `auth.json`, no settings). */
function indexHolds(index: LookbackIndex, path: string): boolean {
	try {
		return index.session(path).path === path;
	} catch {
		return false;
	}
}

/** A session file the index holds, inside the session folders, by its real path; else undefined. */
function servedSessionFile(index: LookbackIndex, path: string, roots: string[]): string | undefined {
	if (!indexHolds(index, path)) return undefined;
	try {
		return sessionPathInRoots(path, roots);
	} catch {
		return undefined;
	}
}

export async function runServe(args: ParsedArgs, io: CliIO, opened: NodeIndex, webDir: string): Promise<number> {
	// A long-lived host: its syncs and the read snapshots it hands out are made by its indexer process, so that
	// its event loop only answers requests. It serves at once; what the indexer adds shows on the page.
	let said = false;
	// Loaded only here, as the HTTP server below: the indexer process it starts is no other command's cost.
	const { HostIndex } = await import("../node/host-index.js");
	const host = new HostIndex(indexOptions(args, io), {
		onSynced: () => {
			if (said) io.stderr("lookback: indexing done; reload the page to search everything\n");
			said = false;
		},
	});
	const state = await host.settle();
	if (state.indexing) {
		said = true;
		io.stderr(
			`lookback: indexing in the background: ${state.indexing.done}/${state.indexing.total} files so far; the page searches what is indexed\n`,
		);
	}
	const roots = opened.source.roots();
	const remote = option(args, "remote");
	// Loaded only here: the HTTP server is no other command's cost (node:http alone took 8 ms of each start).
	const { serveViewer } = await import("../node/serve.js");
	const serving = await serveViewer({
		indexPath: opened.indexPath,
		webDir,
		port: intOption(args, "port", 1, 65535),
		makeSnapshot: (from, to) => host.indexer.snapshot(from, to),
		sessionFile: (path) => servedSessionFile(opened.index, path, roots),
		archived: opened.archive,
		...(remote ? { team: (await import("../node/team/team-route.js")).teamRoute(remote, io.env) } : {}),
	});
	// Listening, it loads what it could import later, before it says where it is: it runs for days, and an
	// upgrade removes the hashed chunks of the build it came from (scripts/build.mjs).
	await host.preload();
	// `--remote`: the page opens on the team's shards, passed through `/team/` (the redirect that trades the token keeps `team`).
	const page = remote ? `${serving.openUrl}&team=team` : serving.openUrl;
	io.stdout(`lookback: the viewer is at ${page} (127.0.0.1 only, read-only; the token in it is this run's secret; Ctrl+C to stop)\n`);
	// Ctrl+C (or SIGINT from whoever started it) stops it.
	await new Promise<void>((resolve) => process.on("SIGINT", () => resolve()));
	await serving.close();
	host.close();
	return 0;
}
