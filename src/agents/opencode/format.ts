/**
 * OpenCode's sessions, in the shape `opencode export` prints: `{info, messages: [{info, parts}]}`. lookback's
 * Node source renders each session of OpenCode's database (or of its JSON tree before 1.2.0) in this shape, so a
 * session is one document read whole (`growth: "whole"`: any change reads it again). Messages follow one another
 * (OpenCode keeps no branches; a pending revert leaves the reverted messages on an abandoned branch). A user
 * message's text is the person's words, its `synthetic` parts the harness's (meta); an assistant message's text
 * and tool calls are one entry, each tool's output or error one more; reasoning is never indexed. A compaction is
 * a user message holding a `compaction` part, answered by an assistant message marked `summary`. Read into Pi's
 * entry shape, with each answer's model, provider and usage as Pi writes them.
 */

import type { SessionFormat } from "../../core/parse/formats.js";
import { parseJsonObject } from "../../core/parse/jsonl.js";
import {
	asRecord,
	asString,
	assistantEntry,
	compactionEntry,
	linkEntry,
	metaEntry,
	type PiBlock,
	piUsage,
	summaryEntry,
	toolResultEntry,
	untestedVersion,
	usageEntry,
	userEntry,
} from "../../core/parse/pi-shape.js";
import type { ParsedChunk, ParseState, SessionEntry } from "../../core/parse/session-format.js";

/** The newest OpenCode whose sessions were read in tests (test/agents/opencode-cli.test.ts). */
const OPENCODE_TESTED_VERSION = "1.18.33";

/** An agent that keeps OpenCode's rows (OpenCode, or a fork of it: Kilo Code): its name and the newest release read in tests. */
interface ExportWriter {
	label: string;
	testedVersion: string;
}

/** Part types OpenCode writes; those that are not text, a tool, a file, a subtask or a compaction hold nothing to search. */
const KNOWN_PARTS = new Set([
	"text",
	"reasoning",
	"tool",
	"file",
	"step-start",
	"step-finish",
	"snapshot",
	"patch",
	"agent",
	"subtask",
	"compaction",
	"retry",
]);

/** The title OpenCode gives a session until its model names it: not a title. */
const PLACEHOLDER_TITLE = /^(?:New|Child) session - \d{4}-\d{2}-\d{2}T/;

interface Tally {
	malformed: number;
	unknown: number;
}

function isoTime(ms: unknown): string | undefined {
	return typeof ms === "number" && Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

function timeOf(info: Record<string, unknown> | undefined, key = "created"): unknown {
	return asRecord(info?.time)?.[key];
}

/**
 * Usage as Pi writes it, from OpenCode's tokens and cost: OpenCode's `input` already leaves the cache out, and its
 * `output` leaves out the reasoning tokens (counted apart, billed as output: 1.18.33 stores 10 completion tokens of
 * which 4 reasoning as output 6, reasoning 4), which Pi's output counts.
 *
 * OpenCode writes a cost of 0 for any model whose price it does not know (its models.dev entry has none: a custom
 * provider, a local model) and for a subscription's, so a 0 beside tokens says no price was known, not that the
 * tokens were free: it is left out, and the usage writer prices the tokens from the table (marked estimated) or
 * counts them as unpriced. A cost above 0 is kept as OpenCode recorded it.
 */
function usageOf(info: Record<string, unknown>): Record<string, unknown> | undefined {
	const tokens = asRecord(info.tokens);
	if (!tokens) return undefined;
	const cache = asRecord(tokens.cache);
	const reasoning = typeof tokens.reasoning === "number" ? tokens.reasoning : 0;
	const output = typeof tokens.output === "number" ? tokens.output + reasoning : tokens.output;
	const counts = [tokens.input, output, cache?.read, cache?.write];
	const spent = counts.some((n) => typeof n === "number" && n > 0);
	const costUsd = info.cost === 0 && spent ? undefined : info.cost;
	return piUsage({ input: tokens.input, output, cacheRead: cache?.read, cacheWrite: cache?.write, costUsd });
}

/** Why OpenCode stopped, in Pi's words. */
function stopReason(info: Record<string, unknown>): string | undefined {
	const error = asRecord(info.error);
	if (asString(error?.name) === "MessageAbortedError") return "aborted";
	if (error) return "error";
	const finish = asString(info.finish);
	return finish === "tool-calls" ? "toolUse" : finish;
}

function errorText(info: Record<string, unknown>): string | undefined {
	const error = asRecord(info.error);
	if (!error) return undefined;
	return asString(asRecord(error.data)?.message) ?? asString(error.message) ?? asString(error.name);
}

/** A file attached to a prompt, named (its bytes are never indexed). */
function fileText(part: Record<string, unknown>): string {
	return `[${asString(part.filename) ?? asString(part.mime) ?? "file"}]`;
}

/** What a tool said: its output, or its error. */
function toolOutput(state: Record<string, unknown>): { text: string; error: boolean } | undefined {
	if (state.status === "error") return { text: asString(state.error) ?? "error", error: true };
	if (state.status !== "completed") return undefined;
	const output = state.output ?? asRecord(state.metadata)?.output;
	return { text: typeof output === "string" ? output : JSON.stringify(output ?? ""), error: false };
}

/** The parts of a message that are objects; the others are counted malformed. */
function partsOf(message: Record<string, unknown>, tally: Tally): Record<string, unknown>[] {
	const parts: Record<string, unknown>[] = [];
	for (const raw of Array.isArray(message.parts) ? message.parts : []) {
		const part = asRecord(raw);
		if (!part || typeof part.type !== "string") tally.malformed++;
		else if (!KNOWN_PARTS.has(part.type)) tally.unknown++;
		else parts.push(part);
	}
	return parts;
}

/** Builds the chain of entries: each follows the one before. */
class Chain {
	readonly entries: SessionEntry[] = [];
	constructor(private readonly state: ParseState) {}
	place(id: string, timestamp: string | undefined) {
		return { id, parentId: this.entries.at(-1)?.id ?? null, seq: this.state.nextSeq++, timestamp };
	}
	push(entry: SessionEntry): void {
		this.entries.push(entry);
	}
}

function userMessage(id: string, parts: Record<string, unknown>[], timestamp: string | undefined, chain: Chain): void {
	const said: string[] = [];
	const injected: { id: string; text: string }[] = [];
	let compaction: string | undefined;
	for (const part of parts) {
		const partId = asString(part.id) ?? `${id}#${injected.length}`;
		if (part.type === "text" && typeof part.text === "string") {
			if (part.synthetic === true) injected.push({ id: partId, text: part.text });
			else said.push(part.text);
		} else if (part.type === "file") said.push(fileText(part));
		else if (part.type === "subtask") {
			const agent = asString(part.agent) ?? "agent";
			injected.push({ id: partId, text: `${agent}: ${[asString(part.description), asString(part.prompt)].filter(Boolean).join("\n")}` });
		} else if (part.type === "compaction") compaction = partId;
	}
	const text = said.join("\n").trim();
	if (text.length > 0) chain.push(userEntry(chain.place(id, timestamp), text));
	else if (injected.length === 0 && compaction === undefined) chain.push(linkEntry(chain.place(id, timestamp), "user"));
	// The message's own id goes to its first entry (a reply names it as its parent); the others take their part's.
	let named = text.length > 0;
	for (const meta of injected) {
		chain.push(metaEntry(chain.place(named ? meta.id : id, timestamp), meta.text));
		named = true;
	}
	// The model's context starts again here: everything before is compacted; the summary comes in the next message.
	if (compaction !== undefined) chain.push(compactionEntry(chain.place(compaction, timestamp), "", compaction));
}

function assistantMessage(
	id: string,
	info: Record<string, unknown>,
	parts: Record<string, unknown>[],
	timestamp: string | undefined,
	chain: Chain,
): void {
	const texts: string[] = [];
	const injected: { id: string; text: string }[] = [];
	const blocks: PiBlock[] = [];
	const results: { id: string; tool: string; output: { text: string; error: boolean } }[] = [];
	for (const part of parts) {
		if (part.type === "text" && typeof part.text === "string") {
			if (part.synthetic === true) injected.push({ id: asString(part.id) ?? `${id}#${injected.length}`, text: part.text });
			else texts.push(part.text);
		} else if (part.type === "tool") {
			const state = asRecord(part.state) ?? {};
			const tool = asString(part.tool) ?? "tool";
			blocks.push({ type: "toolCall", id: asString(part.callID), name: tool, arguments: state.input });
			const output = toolOutput(state);
			if (output) results.push({ id: asString(part.id) ?? `${id}#${results.length}`, tool, output });
		} else if (part.type === "file") texts.push(fileText(part));
		// reasoning is never indexed; steps, snapshots, patches and retries hold nothing to search
	}
	const text = texts.join("\n").trim();
	const answer = {
		model: asString(info.modelID),
		provider: asString(info.providerID),
		usage: usageOf(info),
		stopReason: stopReason(info),
		timestamp: typeof timeOf(info) === "number" ? timeOf(info) : undefined,
	};
	if (info.summary === true) {
		chain.push(summaryEntry(chain.place(id, timestamp), text));
		// The summary was a model call OpenCode paid for: its tokens count, as an answer's do.
		if (answer.usage) chain.push(usageEntry(chain.place(`${id}#usage`, timestamp), answer));
	} else {
		if (text.length > 0) blocks.unshift({ type: "text", text });
		const error = errorText(info);
		chain.push(assistantEntry(chain.place(id, timestamp), blocks, { ...answer, ...(error ? { errorMessage: error } : {}) }));
	}
	for (const meta of injected) chain.push(metaEntry(chain.place(meta.id, timestamp), meta.text));
	for (const r of results) chain.push(toolResultEntry(chain.place(r.id, timestamp), r.tool, r.output.text, r.output.error));
}

/** The entries of one exported session. */
function readDocument(doc: Record<string, unknown>, state: ParseState, writer: ExportWriter): ParsedChunk {
	const info = asRecord(doc.info) ?? {};
	const sessionId = asString(info.id);
	const tally: Tally = { malformed: 0, unknown: 0 };
	const version = asString(info.version);
	const titled = asString(info.title);
	const title = titled && !PLACEHOLDER_TITLE.test(titled) ? titled : undefined;
	// A fork's copies of its source's messages and parts are named as what they copy (node/forks.ts), as Pi's forks are.
	const fork = asRecord(doc.forkOf);
	const forkedFrom = asString(fork?.sessionID);
	const copies = asRecord(fork?.ids) ?? {};
	const named = (id: string) => asString(copies[id]) ?? id;
	if (sessionId && !state.header) {
		state.header = {
			id: sessionId,
			version: 1,
			timestamp: isoTime(timeOf(info)),
			cwd: asString(info.directory),
			...(title ? { title } : {}),
			...(asString(info.parentID) ? { spawnedById: asString(info.parentID) } : forkedFrom ? { parentSession: forkedFrom } : {}),
		};
	}
	if (state.nextSeq === 0) state.nextSeq = 1;
	const chain = new Chain(state);
	const revertAt = asString(asRecord(info.revert)?.messageID);
	let beforeRevert: string | null | undefined;
	for (const raw of Array.isArray(doc.messages) ? doc.messages : []) {
		const message = asRecord(raw);
		const minfo = asRecord(message?.info);
		const ownId = asString(minfo?.id);
		if (!message || !minfo || !ownId) {
			tally.malformed++;
			continue;
		}
		// A revert OpenCode has not yet carried out: this message and the ones after it are no longer the conversation.
		if (ownId === revertAt) beforeRevert = chain.entries.at(-1)?.id ?? null;
		const id = named(ownId);
		const parts = partsOf(message, tally).map((p) => (typeof p.id === "string" && copies[p.id] ? { ...p, id: named(p.id) } : p));
		const timestamp = isoTime(timeOf(minfo));
		if (minfo.role === "user") userMessage(id, parts, timestamp, chain);
		else if (minfo.role === "assistant") assistantMessage(id, minfo, parts, timestamp, chain);
		else tally.unknown++;
	}
	if (beforeRevert !== undefined && chain.entries.at(-1)?.id !== beforeRevert)
		chain.push(linkEntry({ id: `${sessionId ?? "session"}-revert`, parentId: beforeRevert, seq: state.nextSeq++ }, "revert"));
	const newVersion = untestedVersion(version, writer.testedVersion, undefined) ? `${writer.label} ${version}` : undefined;
	return {
		entries: chain.entries,
		malformedLines: tally.malformed,
		...(tally.unknown > 0 ? { unknownRecords: tally.unknown } : {}),
		...(newVersion ? { newVersion } : {}),
		...(title ? { title } : {}),
	};
}

function isExport(obj: Record<string, unknown>): boolean {
	return typeof asRecord(obj.info)?.id === "string" && Array.isArray(obj.messages);
}

/**
 * The format of the export documents an agent's walk renders from OpenCode's rows: `sniff` claims a document given
 * by hand (OpenCode's alone: a fork's export has the same shape, and its own walk names its agent).
 */
export function exportFormat(writer: ExportWriter, sniff?: true): SessionFormat {
	return {
		growth: "whole",
		parseDocument(bytes, state) {
			const doc = parseJsonObject(new TextDecoder().decode(bytes).replace(/^\uFEFF/, ""));
			if (!doc || !isExport(doc)) return { entries: [], malformedLines: 1 };
			return readDocument(doc, state, writer);
		},
		parseLines(lines, state) {
			// A document is read whole (parseDocument); lines come only from a chunk that does not start the file.
			const doc = parseJsonObject(lines.join("\n"));
			return doc && isExport(doc)
				? readDocument(doc, state, writer)
				: { entries: [], malformedLines: lines.filter((l) => l.trim()).length };
		},
		...(sniff ? { sniff: isExport } : {}),
	};
}

export const opencodeFormat: SessionFormat = exportFormat({ label: "OpenCode", testedVersion: OPENCODE_TESTED_VERSION }, true);
