// The benchmark's Pi corpus rewritten in another agent's real format, same sessions and text: bench/corpus/<mb>mb-<agent>.
// Each writer follows what that agent's CLI writes (test/fixtures/<agent> holds real files): Claude Code's lines with
// their bookkeeping (attachments after a prompt, progress under a tool call, one line per content block of a message)
// here; Codex's rollouts in corpus-codex.mjs, Gemini CLI's chats in corpus-gemini.mjs, OpenCode's database in
// corpus-opencode.mjs.
//   import { agentCorpus } from "./agent-corpus.mjs"; await agentCorpus(piDir, "claude") → { root, layout, sessions, bytes }
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeCodex } from "./corpus-codex.mjs";
import { writeGemini } from "./corpus-gemini.mjs";
import { hash32, textOf, uuidOf } from "./corpus-kit.mjs";
import { writeOpencode } from "./corpus-opencode.mjs";

const ATTACHMENTS = [
	{
		type: "deferred_tools_delta",
		addedNames: ["CronCreate", "CronDelete", "EnterWorktree", "Monitor", "NotebookEdit", "WebFetch", "WebSearch"],
	},
	{
		type: "skill_listing",
		content: "- update-config: Use this skill to configure the Claude Code harness via settings.json.\n- simplify: Review changed code.",
	},
	{ type: "date", date: "2026-11-30" },
];

/** One Pi session file → Claude Code's lines. */
function claudeLines(lines) {
	const out = [];
	const header = JSON.parse(lines[0]);
	const base = { isSidechain: false, userType: "external", cwd: header.cwd, sessionId: header.id, version: "2.1.332", gitBranch: "main" };
	const uuid = new Map();
	const parentOf = (e) => (e.parentId ? (uuid.get(e.parentId) ?? null) : null);
	const push = (o) => out.push(JSON.stringify(o));
	for (const line of lines.slice(1)) {
		const e = JSON.parse(line);
		const parentUuid = parentOf(e);
		const id = uuidOf(e.id, e.timestamp);
		const at = { ...base, timestamp: e.timestamp };
		if (e.type === "message") {
			const m = e.message;
			if (m.role === "user") {
				push({ parentUuid, ...at, type: "user", message: { role: "user", content: textOf(m.content) }, uuid: id });
				let parent = id;
				for (const a of ATTACHMENTS) {
					const u = uuidOf(`${e.id}-${a.type}`, e.timestamp);
					push({ parentUuid: parent, ...at, attachment: a, type: "attachment", uuid: u });
					parent = u;
				}
				uuid.set(e.id, parent);
				continue;
			}
			if (m.role === "assistant") {
				const messageId = `msg_${hash32(id, 9)}${hash32(id, 10)}`;
				let parent = parentUuid;
				const blocks = (m.content ?? []).filter((b) => b.type === "text" || b.type === "toolCall" || b.type === "thinking");
				for (const [i, b] of blocks.entries()) {
					const u = i === 0 ? id : uuidOf(`${e.id}-${i}`, e.timestamp);
					const block =
						b.type === "text"
							? { type: "text", text: b.text }
							: b.type === "thinking"
								? { type: "thinking", thinking: b.thinking ?? "", signature: "sig" }
								: { type: "tool_use", id: b.id, name: b.name, input: b.arguments };
					push({
						parentUuid: parent,
						...at,
						message: { id: messageId, type: "message", role: "assistant", model: m.model, content: [block], usage: m.usage },
						type: "assistant",
						uuid: u,
					});
					if (b.type === "toolCall")
						push({
							parentUuid: u,
							...at,
							type: "progress",
							data: { type: "hook_progress", hookEvent: "PreToolUse" },
							toolUseID: b.id,
							uuid: uuidOf(`${e.id}-p${i}`, e.timestamp),
						});
					parent = u;
				}
				uuid.set(e.id, parent ?? id);
				continue;
			}
			if (m.role === "toolResult") {
				push({
					parentUuid,
					...at,
					type: "user",
					message: {
						role: "user",
						content: [{ tool_use_id: m.toolCallId, type: "tool_result", content: textOf(m.content), is_error: m.isError === true }],
					},
					uuid: id,
				});
				uuid.set(e.id, id);
				continue;
			}
			if (m.role === "bashExecution") {
				push({
					parentUuid,
					...at,
					type: "user",
					message: { role: "user", content: `<bash-input>${m.command}</bash-input>\n<bash-stdout>${m.output}</bash-stdout>` },
					uuid: id,
				});
				uuid.set(e.id, id);
				continue;
			}
		}
		if (e.type === "compaction") {
			push({
				parentUuid: null,
				logicalParentUuid: parentUuid,
				...at,
				type: "system",
				subtype: "compact_boundary",
				content: "Conversation compacted",
				isMeta: false,
				compactMetadata: { trigger: "auto", preTokens: e.tokensBefore ?? 0 },
				uuid: id,
			});
			const s = uuidOf(`${e.id}-summary`, e.timestamp);
			push({
				parentUuid: id,
				...at,
				type: "user",
				message: {
					role: "user",
					content: `This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n${e.summary}`,
				},
				isCompactSummary: true,
				uuid: s,
			});
			uuid.set(e.id, s);
			continue;
		}
		if (e.type === "session_info" && e.name) push({ type: "custom-title", customTitle: e.name, sessionId: header.id });
		if (e.type === "custom_message" || e.type === "branch_summary") {
			const text = e.type === "branch_summary" ? e.summary : textOf(e.content);
			push({ parentUuid, ...at, type: "user", message: { role: "user", content: text }, isMeta: true, uuid: id });
			uuid.set(e.id, id);
			continue;
		}
		// model and thinking changes, labels, extension state: nothing in Claude Code's files; the tree goes on through them.
		uuid.set(e.id, parentUuid ?? id);
	}
	return { header, text: `${out.join("\n")}\n` };
}

const WRITERS = {
	claude(piSessions, out) {
		let sessions = 0;
		for (const project of readdirSync(piSessions)) {
			const dir = join(out, "projects", `-home-dev-${project.replace(/^--home-dev-/, "").replace(/--$/, "")}`);
			mkdirSync(dir, { recursive: true });
			for (const name of readdirSync(join(piSessions, project))) {
				if (!name.endsWith(".jsonl")) continue;
				const { header, text } = claudeLines(
					readFileSync(join(piSessions, project, name), "utf8")
						.trimEnd()
						.split("\n"),
				);
				writeFileSync(join(dir, `${header.id}.jsonl`), text);
				sessions++;
			}
		}
		return { root: join(out, "projects"), layout: "claude", sessions };
	},
	codex: writeCodex,
	gemini: writeGemini,
	opencode: writeOpencode,
};

export const AGENT_FORMATS = Object.keys(WRITERS);
/** Raised when a writer changes: a corpus written by an older one is written again. */
const WRITERS_VERSION = 4;

function bytesUnder(dir) {
	let n = 0;
	for (const d of readdirSync(dir, { withFileTypes: true }))
		n += d.isDirectory()
			? bytesUnder(join(dir, d.name))
			: d.name.endsWith(".json") && d.name === "corpus.json"
				? 0
				: statSync(join(dir, d.name)).size;
	return n;
}

/** The Pi corpus in `piDir` written as `agent`'s files once (kept beside it); where its sessions are and how to walk them. */
export async function agentCorpus(piDir, agent) {
	const out = `${piDir}-${agent}`;
	const summaryPath = join(out, "corpus.json");
	if (existsSync(summaryPath)) {
		const summary = JSON.parse(readFileSync(summaryPath, "utf8"));
		if (summary.version === WRITERS_VERSION) return summary;
	}
	rmSync(out, { recursive: true, force: true });
	const made = await WRITERS[agent](join(piDir, "sessions"), out);
	const summary = { agent, version: WRITERS_VERSION, from: piDir, ...made, bytes: bytesUnder(out) };
	writeFileSync(summaryPath, JSON.stringify(summary));
	return summary;
}
