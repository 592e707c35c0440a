/**
 * Export: a session as Markdown, HTML and JSON from the core module, for Pi's, Claude Code's and Codex's
 * sessions: the header's facts, every branch marked with `branch: "all"`, tool calls apart from prose, long
 * messages read whole from the session file, and none of the planted secrets in any format.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXPORT_FORMATS, type ExportDocument, exportSession, LookbackIndex, memoryStorage } from "../../src/core/index.js";
import { loadEngine } from "../../src/node/engine.js";
import { readFileRange } from "../../src/node/file-range.js";
import { fileSource } from "../../src/node/file-source.js";
import { indexOf, SAMPLE, tempDir } from "../helpers.js";
import { assistantMessage, newSession, toolResult, userMessage } from "../pi-sessions.js";
import { PLANTED } from "../secrets.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures");

async function indexed(roots: Parameters<typeof fileSource>[0]) {
	const index = await LookbackIndex.open({ sql: await loadEngine(), storage: memoryStorage() });
	await index.sync(fileSource(roots));
	return index;
}

const json = async (index: LookbackIndex, ref: string, options: { branch?: "active" | "all"; redact?: boolean } = {}) =>
	JSON.parse((await exportSession(index, ref, { format: "json", readRange: readFileRange, ...options })).content) as ExportDocument;

/** A Pi session with every planted secret in every place a message holds text, one tool output long enough to be cut in the index. */
function sessionWithSecrets(root: string): string {
	const sm = newSession(root, "/home/dev/secrets-demo");
	sm.appendMessage(userMessage(`Here are the credentials:\n${PLANTED.map((p) => p.text).join("\n")}`));
	PLANTED.forEach((p, i) => {
		sm.appendMessage(assistantMessage(`Noted: ${p.text}`, [{ name: "bash", arguments: { command: `echo ${p.text}` } }]));
		// Every tenth output is long: its middle is in the session file only, where the secret sits.
		const output = i % 2 === 0 ? `${"log line\n".repeat(400)}${p.text}\n${"log line\n".repeat(400)}` : p.text;
		sm.appendMessage(toolResult("bash", output));
	});
	return sm.getSessionId();
}

describe("export", () => {
	it("exports Pi's branched session with every branch in order, the abandoned ones marked where they leave", async () => {
		const { index } = await indexOf();
		const doc = await json(index, SAMPLE.branched, { branch: "all" });
		expect(doc).toMatchObject({ lookbackExport: 1, branch: "all", redacted: true });
		expect(doc.session).toMatchObject({ title: "Order queue: dead-letter handling", agent: "pi", agentName: "Pi", project: "webshop" });
		expect(doc.session.resumeHint).toBe(`pi --session ${SAMPLE.branched}`);
		expect(doc.branches.map((b) => [b.number, b.state])).toEqual([
			[1, "active"],
			[2, "abandoned"],
			[3, "abandoned"],
		]);
		const active = index.read(SAMPLE.branched);
		expect(doc.branches[0].messages.map((m) => m.entryId)).toEqual(active.messages.map((m) => m.entryId));
		for (const b of doc.branches.slice(1)) {
			expect(b.messages.every((m) => m.branchState === "abandoned")).toBe(true);
			expect(b.leavesAfter).toBeDefined();
			// Each branch shows the part no earlier branch showed, and leaves a message shown before it.
			const before = doc.branches.filter((o) => o.number < b.number).flatMap((o) => o.messages.map((m) => m.entryId));
			expect(before).toContain(b.leavesAfter);
			expect(b.messages.some((m) => before.includes(m.entryId))).toBe(false);
		}
		// Every message of the session is in one branch or another, once.
		const all = doc.branches.flatMap((b) => b.messages.map((m) => m.entryId));
		expect(new Set(all).size).toBe(all.length);
		expect(all.length).toBe(index.readTree(SAMPLE.branched).messages.length);

		const md = (await exportSession(index, SAMPLE.branched, { format: "md", branch: "all" })).content;
		expect(md).toMatch(/^## Branch 2 · abandoned · \d+ messages$/m);
		expect(md).toMatch(/^_leaves branch 1 after message #\d+_$/m);
		expect(md).toContain("> abandoned: left when the conversation went back to an earlier message");
		const html = (await exportSession(index, SAMPLE.branched, { format: "html", branch: "all" })).content;
		expect(html).toContain('<section class="branch" id="branch-2"><h2>Branch 2 · abandoned');
		expect(html).toMatch(/↳ <a href="#branch-2">branch 2<\/a> \(abandoned, \d+ messages\) leaves here/);
		expect(html).toContain('<span class="badge abandoned">abandoned</span>');
	});

	it("exports the active branch only unless asked, compacted stretches marked", async () => {
		const { index } = await indexOf();
		const doc = await json(index, SAMPLE.compaction);
		expect(doc.branches).toHaveLength(1);
		expect(doc.branches[0].messages.some((m) => m.branchState === "compacted")).toBe(true);
		const md = (await exportSession(index, SAMPLE.compaction, { format: "md" })).content;
		expect(md).toContain("## Conversation");
		expect(md).toContain("> compacted: summarized by a later compaction, no longer in the model's context");
		expect(md).toMatch(/### #\d+ · compaction summary/);
	});

	it("puts tool calls and their output in collapsed blocks, apart from the prose", async () => {
		const { index } = await indexOf();
		const doc = await json(index, SAMPLE.bash);
		const withCalls = doc.branches[0].messages.find((m) => m.calls?.length);
		expect(withCalls?.calls?.[0]).toMatchObject({ name: expect.any(String), arguments: expect.stringMatching(/^\{/) });
		expect(withCalls?.text).not.toContain("→ ");
		const html = (await exportSession(index, SAMPLE.bash, { format: "html" })).content;
		expect(html).toMatch(/<details class="tool call"><summary><code>→ \w+ /);
		expect(html).toMatch(/<details class="tool result"><summary><code>\$ git status --short<\/code><\/summary><pre>/);
		const md = (await exportSession(index, SAMPLE.bash, { format: "md" })).content;
		expect(md).toMatch(/<details><summary>→ \w+ [^\n]*<\/summary>\n\n```json\n\{/);
	});

	it("reads long messages whole from the session file, and says so when only the index's head and tail can be had", async () => {
		const root = join(tempDir("export-long"), "sessions");
		const sm = newSession(root, "/home/dev/long");
		const middle = "the unstored middle says ZEBRA-MARKER-42";
		sm.appendMessage(userMessage("print the log"));
		sm.appendMessage(assistantMessage("", [{ name: "bash", arguments: { command: "cat build.log" } }]));
		sm.appendMessage(toolResult("bash", `${"a".repeat(5_000)}\n${middle}\n${"z".repeat(5_000)}`));
		const { index } = await indexOf(root);
		const id = sm.getSessionId();
		expect(index.read(id).messages[2].text).not.toContain(middle);
		const whole = await json(index, id);
		expect(whole.branches[0].messages[2]).toMatchObject({ text: expect.stringContaining(middle) });
		expect(whole.branches[0].messages[2].textCut).toBeUndefined();
		const cut = JSON.parse((await exportSession(index, id, { format: "json" })).content) as ExportDocument;
		expect(cut.branches[0].messages[2]).toMatchObject({
			textCut: true,
			text: expect.stringContaining("characters only in the word index"),
		});
		expect((await exportSession(index, id, { format: "md" })).content).toContain("only the head and tail of this message could be read");
	});

	for (const format of EXPORT_FORMATS)
		it(`leaves none of the planted secrets in a ${format} export, and every one with redact: false`, async () => {
			const root = join(tempDir("export-secrets"), "sessions");
			const id = sessionWithSecrets(root);
			const { index } = await indexOf(root);
			const file = await exportSession(index, id, { format, readRange: readFileRange });
			for (const p of PLANTED) expect(file.content, p.kind).not.toContain(p.secret);
			for (const p of PLANTED) expect(file.content).toContain(`[REDACTED:${p.kind}]`);
			expect(Object.keys(file.document.redactions).sort()).toEqual([...new Set(PLANTED.map((p) => p.kind))].sort());
			const plain = await exportSession(index, id, { format, readRange: readFileRange, redact: false });
			for (const p of PLANTED) expect(plain.content, p.kind).toContain(format === "json" ? JSON.stringify(p.secret).slice(1, -1) : "");
			expect(plain.document.redacted).toBe(false);
			if (format !== "html")
				for (const p of PLANTED) expect(plain.content).toContain(format === "json" ? JSON.stringify(p.secret).slice(1, -1) : p.secret);
		});

	it("exports a Claude Code session with its agent, resume command, tool calls and sub-agent named", async () => {
		const index = await indexed([{ path: join(FIXTURES, "claude", "projects"), layout: "claude", agent: "claude" }]);
		const id = "803bb4c1-76e6-4594-9fb6-45953cf58af7";
		const doc = await json(index, id);
		expect(doc.session).toMatchObject({ agent: "claude", agentName: "Claude Code", project: "zebra-app" });
		expect(doc.session.resumeHint).toBe(`cd /home/user/zebra-app && claude -r ${id}`);
		expect(doc.subagents.map((a) => a.name)).toEqual(["agent-a1fa55d4f6c0a40b7"]);
		const spawner = doc.branches[0].messages.find((m) => m.subagents);
		expect(spawner?.subagents?.[0].name).toBe("agent-a1fa55d4f6c0a40b7");
		expect(doc.branches[0].messages.some((m) => m.calls?.some((c) => c.name === "Read"))).toBe(true);
		for (const format of ["md", "html"] as const) {
			const text = (await exportSession(index, id, { format, readRange: readFileRange })).content;
			expect(text).toContain("Claude Code");
			expect(text).toContain(`claude -r ${id}`);
			expect(text).toContain("sub-agent");
			expect(text).toContain("agent-a1fa55d4f6c0a40b7");
		}
	});

	it("exports a Codex session in every format", async () => {
		const index = await indexed([{ path: join(FIXTURES, "codex"), layout: "codex", agent: "codex" }]);
		const id = "01a2315e-b204-7071-b339-8dc13fe83021";
		const doc = await json(index, id);
		expect(doc.session).toMatchObject({ agent: "codex", agentName: "Codex", resumeHint: `codex resume ${id}` });
		expect(doc.branches[0].messages.length).toBeGreaterThan(2);
		expect(doc.branches[0].messages.some((m) => m.role === "tool")).toBe(true);
		const md = (await exportSession(index, id, { format: "md", readRange: readFileRange })).content;
		expect(md).toContain("- **agent:** Codex");
		expect(md).toContain(`codex resume ${id}`);
		const html = (await exportSession(index, id, { format: "html", readRange: readFileRange })).content;
		expect(html).toContain("<dt>agent</dt><dd>Codex</dd>");
	});

	it("keeps a hostile session's markup inert in Markdown: tags escaped, unsafe link targets dropped, code left as code", async () => {
		const root = join(tempDir("export-hostile"), "sessions");
		const sm = newSession(root, "/home/dev/hostile");
		sm.appendMessage(
			userMessage('<script>alert(1)</script> <img src=x onerror="alert(2)"> [press](javascript:alert(3))\n\n```html\n<b>kept</b>\n```'),
		);
		sm.appendMessage(assistantMessage("`<code>` stays and ![pixel](https://tracker.example/p.png)"));
		const { index } = await indexOf(root);
		const md = (await exportSession(index, sm.getSessionId(), { format: "md" })).content;
		expect(md).toContain("\\<script>alert(1)\\</script> \\<img src=x onerror=");
		expect(md).toContain("[press](#unsafe-link-removed)");
		expect(md).toContain("```html\n<b>kept</b>\n```");
		expect(md).toContain("`<code>` stays");
		expect(md).not.toMatch(/(^|[^\\])<(script|img)/);
	});

	it("refuses an unknown format or branch with a clear error", async () => {
		const { index } = await indexOf();
		await expect(exportSession(index, SAMPLE.linear, { format: "pdf" as "md" })).rejects.toThrow(/format must be one of md, html, json/);
		await expect(exportSession(index, SAMPLE.linear, { format: "md", branch: "some" as "all" })).rejects.toThrow(/"active" or "all"/);
		await expect(exportSession(index, "nosuchsession", { format: "md" })).rejects.toThrow(/no indexed session/);
	});
});
