/** The check that a path a person names is a session inside the session roots. */

import { realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { nodeAgents } from "../agents/node-registry.js";
import { LookbackError } from "../core/errors.js";

/** A path whose file does not exist, with the links of its deepest existing folder resolved. */
function realAncestor(path: string): string {
	const rest: string[] = [basename(path)];
	for (let dir = dirname(path); ; dir = dirname(dir)) {
		try {
			return join(realpathSync(dir), ...rest);
		} catch {
			if (dirname(dir) === dir) return path;
			rest.unshift(basename(dir));
		}
	}
}

function inside(child: string, parent: string): boolean {
	const rel = relative(parent, child);
	return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) && !rel.split(sep).includes("..");
}

/** A session inside a file of an agent's store (OpenCode's `<database>/ses_…`): its real path, if `path` names one. */
function sessionInStore(path: string): string | undefined {
	for (const agent of nodeAgents()) {
		const real = agent.store?.sessionIn(path);
		if (real) return real;
	}
	return undefined;
}

/**
 * What a session's path is: it ends in one of the agents' endings (`.jsonl`, then the others with what each is), or
 * lies inside an agent's store.
 */
function sessionPathRule(): { endings: string[]; rule: string } {
	const whats = new Map<string, string[]>();
	for (const agent of nodeAgents())
		for (const e of agent.sessionEndings) {
			const list = whats.get(e.ending) ?? [];
			if (e.what) list.push(e.what);
			whats.set(e.ending, list);
		}
	const [plain, ...others] = [...whats];
	const more = others.map(([ending, what]) => `${ending}, ${what.join(" or ")}`).join("; ");
	const stores = nodeAgents().flatMap((a) => (a.store ? [`, or is ${a.store.what}`] : []));
	return { endings: [...whats.keys()], rule: `a session file ends in ${plain[0]}${more ? ` (or ${more})` : ""}${stores.join("")}` };
}

/**
 * The real path of a session file named by the user, refused unless it is a `.jsonl` (`.jsonl.gz`) inside one of the
 * roots after symlinks are resolved, or a session inside a database there; a file that is gone, by the path as
 * given. @throws LookbackError("path-outside-roots").
 */
export function sessionPathInRoots(path: string, roots: string[]): string {
	const refuse = (why: string) => new LookbackError("path-outside-roots", `refusing "${path}": ${why}`);
	const inDatabase = sessionInStore(path);
	if (!inDatabase) {
		const { endings, rule } = sessionPathRule();
		if (!endings.some((e) => path.endsWith(e))) throw refuse(rule);
	}
	let real: string;
	try {
		real = inDatabase ?? realpathSync(resolve(path));
	} catch {
		// A session whose file is gone is still named by its path (read from lookback's archive), its folders' links resolved.
		if (/[\x00-\x1f]/.test(path)) throw refuse("no such file");
		real = realAncestor(resolve(path));
	}
	for (const root of roots) {
		let realRoot: string;
		try {
			realRoot = realpathSync(root);
		} catch {
			realRoot = resolve(root); // a folder removed with its sessions: they may be gone, not forgotten
		}
		if (inside(real, realRoot)) return real;
	}
	throw refuse(`it is not inside the session folders (${roots.join(", ")})`);
}
