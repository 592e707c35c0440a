/**
 * `lookback restore` for an OpenCode session. lookback never writes OpenCode's database, so a gone session is
 * written as the file `opencode import <file>` loads: the JSON `opencode export <id>` prints (`{info, messages:
 * [{info, parts}]}`), which is the document the archive keeps (render.ts), less the rows that were no
 * JSON object (OpenCode 1.18.33's import decodes every message and part against its schema, and stops at one that
 * is not). Each session (and each sub-agent session it spawned) gets a file of its own in a new private folder of
 * the system's temp folder, so nothing is ever written over; the reply names the command that imports them, from
 * the session's project folder, which import makes the session's project.
 */

import { closeSync, fsyncSync, mkdtempSync, openSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LookbackError, type SessionSummary } from "../../../core/index.js";
import type { ArchiveRecord } from "../../../node/archive-manifest.js";
import { syncDir } from "../../../node/archive-manifest.js";
import type { FileArchive } from "../../../node/archive-store.js";
import type { RestoredFile, RestoreReply } from "../../../node/restore.js";
import { idAsName } from "../../agent.js";
import type { NodeAgent } from "../../node-agent.js";
import { opencode } from "../agent.js";
import { type ExportImporter, importHint } from "../import-hint.js";
import { type OpencodeDocument, type RenderLosses, renderLosses } from "./render.js";

function isRecord(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The archived document as `opencode import` takes it: the messages and parts that were rows of JSON objects. */
function importable(archive: FileArchive, record: ArchiveRecord, sessionId: string): OpencodeDocument {
	const bytes = archive.readSync(record.path, 0, record.size);
	let doc: unknown;
	try {
		doc = bytes ? JSON.parse(new TextDecoder().decode(bytes)) : undefined;
	} catch {
		doc = undefined;
	}
	if (!isRecord(doc) || !isRecord(doc.info) || typeof doc.info.id !== "string" || !Array.isArray(doc.messages))
		throw new LookbackError(
			"restore-refused",
			`cannot restore ${sessionId}: the archive's copy of ${record.path} is not the JSON \`opencode export\` prints, which \`opencode import\` loads; read it with \`lookback read\``,
		);
	const messages = doc.messages
		.filter((m): m is { info: Record<string, unknown>; parts: unknown[] } => isRecord(m) && isRecord(m.info) && Array.isArray(m.parts))
		.map((m) => ({ info: m.info, parts: m.parts.filter(isRecord) }));
	return { info: doc.info, messages };
}

/** Write `text` to a file that is not there yet, and make it durable. */
function writeNew(path: string, text: string): number {
	const bytes = new TextEncoder().encode(text);
	const fd = openSync(path, "wx", 0o600);
	try {
		for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
		fsyncSync(fd);
	} finally {
		closeSync(fd);
	}
	return bytes.length;
}

/**
 * Each gone session of `sessions` (the session first, then its sub-agents' sessions; `records` their copies)
 * written to a new file for `<command> import`; a session the agent's database still holds is in place.
 */
function restoreExports(
	agent: ExportImporter,
	archive: FileArchive,
	sessions: readonly SessionSummary[],
	records: readonly (ArchiveRecord | undefined)[],
): RestoreReply {
	const session = sessions[0];
	const files: RestoredFile[] = [];
	const written: string[] = [];
	const lost: RenderLosses = { files: 0, cutTexts: 0 };
	let dir: string | undefined;
	sessions.forEach((s, i) => {
		const record = records[i];
		if (s.source !== "gone" || !record) {
			files.push({ path: s.path, bytes: record?.size ?? 0, outcome: "in-place" });
			return;
		}
		const doc = importable(archive, record, s.sessionId);
		const losses = renderLosses(doc);
		lost.files += losses.files;
		lost.cutTexts += losses.cutTexts;
		dir ??= mkdtempSync(join(tmpdir(), `lookback-${agent.command}-`));
		// Named by its id only where that is a plain name (ids come from files: `../x` would write outside).
		const path = join(dir, `${idAsName(s.sessionId) ?? idAsName(doc.info.id) ?? `session-${i + 1}`}.json`);
		files.push({ path, bytes: writeNew(path, JSON.stringify(doc)), outcome: "written" });
		written.push(path);
	});
	if (dir) syncDir(dir);
	// The session a sub-agent's was spawned by is the one OpenCode resumes.
	const resumed = session.kind === "subagent" ? (session.spawnedBySessionId ?? session.sessionId) : session.sessionId;
	if (written.length === 0) return { session, files, resumeHint: session.resumeHint };
	return {
		session,
		files,
		resumeHint: importHint(agent, written, session.cwd, resumed),
		load: { agent: { label: agent.label, command: agent.command }, command: importHint(agent, written, session.cwd), lost },
	};
}

/** The restore of an agent that keeps OpenCode's rows and imports its exports (`NodeAgent.restore`). */
export function exportsRestore(agent: ExportImporter): NonNullable<NodeAgent["restore"]> {
	return (archive, sessions, records) => restoreExports(agent, archive, sessions, records);
}

/** OpenCode's restore: files for `opencode import`. */
export const restoreOpencode = exportsRestore({ kind: opencode.kind, label: opencode.label, command: "opencode" });
