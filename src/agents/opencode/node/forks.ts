/**
 * OpenCode's forks (`opencode run --fork`, the TUI's fork): a new session holding copies of its session's messages
 * and parts, each with a new id but the message's own time, and nothing that names where they came from. A fork
 * copies from the first message on, so sessions whose first messages have the same time are one session and its
 * forks, in the order they were made (a fork of a fork is its fork's: forkSources); a fork's copied messages are
 * those that pair, in order, with its source's by time and role, and their parts pair in order by type. Each copy is named by the id of what it copies
 * (through the other's own copies, to the first), as Pi's forks keep their parent's ids: a hit in the copied history
 * folds into the parent's, and its usage counts once.
 */

type Row = Record<string, unknown>;
export type Query = (sql: string, params?: (string | number)[]) => Row[];

/** The session a fork copies, and the id of what each of its copied messages and parts copies. */
export interface OpencodeFork {
	sessionID: string;
	ids: Record<string, string>;
}

/** Forks of forks are followed this far. */
const DEPTH = 8;

interface Message {
	id: string;
	time: number;
	role: string;
}

function messagesOf(query: Query, session: string): Message[] {
	return query("SELECT id, time_created AS t, data FROM message WHERE session_id = ? ORDER BY time_created, id", [session]).map((r) => ({
		id: String(r.id),
		time: Number(r.t),
		role: /"role"\s*:\s*"(\w+)"/.exec(String(r.data ?? ""))?.[1] ?? "",
	}));
}

function partsOf(query: Query, message: string): { id: string; type: string }[] {
	return query("SELECT id, data FROM part WHERE message_id = ? ORDER BY id", [message]).map((r) => ({
		id: String(r.id),
		type: /"type"\s*:\s*"([\w-]+)"/.exec(String(r.data ?? ""))?.[1] ?? "",
	}));
}

/**
 * Each fork's source, from every session's first message time and its own: sessions whose first messages have the
 * same time, in the order they were made, each the fork of the one made before it.
 */
export function forkSources(sessions: { id: string; first: number | undefined; created: number }[]): Map<string, string> {
	const byFirst = new Map<number, { id: string; created: number }[]>();
	for (const s of sessions) {
		if (s.first === undefined) continue;
		const same = byFirst.get(s.first) ?? [];
		same.push(s);
		byFirst.set(s.first, same);
	}
	const sources = new Map<string, string>();
	for (const same of byFirst.values()) {
		same.sort((a, b) => a.created - b.created || (a.id < b.id ? -1 : 1));
		for (let i = 1; i < same.length; i++) sources.set(same[i].id, same[i - 1].id);
	}
	return sources;
}

/** The fork `session` is, given each fork's source (forkSources), or undefined. */
export function opencodeForkOf(query: Query, session: string, sources: Map<string, string>, depth = 0): OpencodeFork | undefined {
	const source = sources.get(session);
	if (source === undefined || depth > DEPTH) return undefined;
	const own = messagesOf(query, session);
	const theirs = messagesOf(query, source);
	const further = opencodeForkOf(query, source, sources, depth + 1)?.ids ?? {};
	const ids: Record<string, string> = {};
	const name = (id: string) => further[id] ?? id;
	for (let i = 0; i < own.length && i < theirs.length; i++) {
		const [mine, copied] = [own[i], theirs[i]];
		if (mine.time !== copied.time || mine.role !== copied.role) break;
		ids[mine.id] = name(copied.id);
		const myParts = partsOf(query, mine.id);
		const theirParts = partsOf(query, copied.id);
		for (let p = 0; p < myParts.length && p < theirParts.length && myParts[p].type === theirParts[p].type; p++)
			ids[myParts[p].id] = name(theirParts[p].id);
	}
	return Object.keys(ids).length > 0 ? { sessionID: source, ids } : undefined;
}
