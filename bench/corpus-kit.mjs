// What every writer of bench/agent-corpus.mjs shares: stable ids derived from Pi's, the text of Pi content, the
// Pi sessions of a corpus one file at a time, and filler of a given size for the bookkeeping the agents write.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export function hash32(str, seed) {
	let h = 0x811c9dc5 ^ seed;
	for (let i = 0; i < str.length; i++) {
		h ^= str.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	h ^= h >>> 16;
	h = Math.imul(h, 0x85ebca6b);
	h ^= h >>> 13;
	return (h >>> 0).toString(16).padStart(8, "0");
}

/** A UUID for a Pi entry: the same entry copied into a fork (same id and time) keeps it, as the agents' copies do. */
export function uuidOf(id, ts) {
	const h = [1, 2, 3, 4].map((s) => hash32(`${id}|${ts}`, s)).join("");
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function textOf(content) {
	return typeof content === "string" ? content : (content ?? []).map((b) => (b.type === "text" ? b.text : "")).join("\n");
}

/** Each Pi session file under `piSessions/<project>/`: its folder, file name, header and entries (in file order). */
export function* piSessionFiles(piSessions) {
	for (const project of readdirSync(piSessions).sort())
		for (const name of readdirSync(join(piSessions, project)).sort()) {
			if (!name.endsWith(".jsonl")) continue;
			const [header, ...entries] = readFileSync(join(piSessions, project, name), "utf8")
				.trimEnd()
				.split("\n")
				.map((line) => JSON.parse(line));
			yield { project, name, header, entries };
		}
}

/** The entries a fork copied from its parent (Pi's `parentSession`): the leading ones whose ids the parent has. */
export function copiedPrefix(piSessions, project, header, entries) {
	if (!header.parentSession) return 0;
	const parent = header.parentSession.split("/").pop();
	let ids;
	try {
		ids = new Set(
			readFileSync(join(piSessions, project, parent), "utf8")
				.trimEnd()
				.split("\n")
				.slice(1)
				.map((line) => JSON.parse(line).id),
		);
	} catch {
		return 0;
	}
	let n = 0;
	while (n < entries.length && ids.has(entries[n].id)) n++;
	return n;
}

const WORDS = "the agent reads the workspace runs the tests and reports what changed before it edits a file".split(" ");

/** `chars` characters of plain words: the size of what an agent writes (instructions, listings), not its text. */
export function filler(chars, seed = 0) {
	let out = "";
	for (let i = seed; out.length < chars; i++) out += `${WORDS[i % WORDS.length]}${i % 17 === 16 ? ".\n" : " "}`;
	return out.slice(0, chars);
}
