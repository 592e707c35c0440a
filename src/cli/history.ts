/** `lookback restore` and `lookback forget`: the history lookback keeps, written back or removed for good. */

import { agentFacts, DEFAULTS, type GoneFilter, LookbackError, mebibytes, type SessionSummary, shortTime } from "../core/index.js";
import type { NodeIndex } from "../node/open.js";
import type { RestoreReply } from "../node/restore.js";
import type { Style } from "./format.js";

export function formatRestore(reply: RestoreReply, style: Style): string {
	// An agent whose restore writes elsewhere (OpenCode's) says what became of each file in its own words.
	const elsewhere = agentFacts(reply.session.agent).restoredElsewhere;
	const lines = reply.files.map((f) => {
		const what =
			f.outcome === "written"
				? (elsewhere?.wrote ?? "restored")
				: f.outcome === "in-place"
					? (elsewhere?.inPlace ?? "already in place")
					: "left as it is (another file is there)";
		return `${style.bold(what)} ${f.path} ${style.dim(`(${f.bytes} bytes)`)}`;
	});
	const load = reply.load;
	if (load) {
		lines.push(
			`lookback never writes ${load.agent.label}'s database: these files are the sessions as \`${load.agent.command} export\` prints them, which \`${load.agent.command} import\` loads:`,
			`  ${load.command}`,
		);
		const lost = [
			...(load.lost.files > 0 ? [`${load.lost.files} inlined file${load.lost.files === 1 ? "" : "s"} kept as their type only`] : []),
			...(load.lost.cutTexts > 0
				? [`${load.lost.cutTexts} text${load.lost.cutTexts === 1 ? "" : "s"} cut at ${mebibytes(DEFAULTS.spilledOutputMaxBytes)}`]
				: []),
		];
		if (lost.length > 0) lines.push(style.warn(`the archive's copy lacks what lookback never kept: ${lost.join(", ")}`));
	}
	lines.push(`resume it with: ${reply.resumeHint.replace(/^lookback restore \S+ && /, "")}`);
	return `${lines.join("\n")}\n`;
}

export interface ForgetRequest {
	ref?: string;
	project?: string;
	before?: string;
	gone?: GoneFilter;
	agent?: SessionSummary["agent"];
	/** Do it; without, only say what would go. */
	yes: boolean;
}

export interface ForgetReply {
	dryRun: boolean;
	/** Sessions (and sub-agent transcripts) selected. */
	count: number;
	sessions: SessionSummary[];
	/** With --yes: removed from the index, and copies removed from the archive. */
	removed?: { index: number; archive: number };
}

/** The sessions a forget selects; with `yes`, their tombstones written, then their copies and index rows removed. */
export async function forget(opened: NodeIndex, request: ForgetRequest): Promise<ForgetReply> {
	const { ref, project, before, gone, agent } = request;
	if (ref === undefined && project === undefined && before === undefined)
		throw new LookbackError("bad-argument", "forget needs a SESSION, --project P or --before DATE");
	const sessions = opened.index.matching(ref !== undefined ? { session: ref } : { project, before, gone, agent });
	if (!request.yes) return { dryRun: true, count: sessions.length, sessions };
	const archive = opened.archive.forget(sessions.map((s) => ({ path: s.path, sessionId: s.sessionId || undefined })));
	const index = await opened.index.forget(sessions.map((s) => s.path));
	return { dryRun: false, count: sessions.length, sessions, removed: { index, archive } };
}

export function formatForget(reply: ForgetReply, style: Style): string {
	const lines = reply.sessions.map((s) => {
		const title = s.name ?? s.firstPrompt?.replace(/\s+/g, " ").slice(0, 60) ?? "";
		const mark = s.source === "gone" ? ` ${style.warn("gone")}` : s.kind === "subagent" ? ` ${style.dim("sub-agent")}` : "";
		return `${shortTime(s.modified, "—")}  ${s.sessionId.slice(0, 13)}  ${s.project || "—"}  ${title}${mark}`;
	});
	const n = `${reply.count} session${reply.count === 1 ? "" : "s"}`;
	if (reply.dryRun)
		lines.push(
			style.bold(
				`${n} would be forgotten: removed from the index and the archive, and never indexed again. Run again with --yes to do it.`,
			),
		);
	else
		lines.push(
			style.bold(
				`forgot ${n}: ${reply.removed?.index ?? 0} removed from the index, ${reply.removed?.archive ?? 0} copies from the archive`,
			),
		);
	return `${lines.join("\n")}\n`;
}
