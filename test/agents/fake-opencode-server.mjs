// A fake OpenAI-compatible chat server on 127.0.0.1 for driving the real `opencode` binary in tests
// (`POST /v1/chat/completions`, streamed). The last user text decides the answer: "SHELL <command>" calls the bash
// tool, "TASK <prompt>" the task tool (a sub-agent, whose own prompt starts with "CHILD "), "CALL <tool> <json>" any
// tool (an MCP server's: `<server>_<tool>`), "OVERFLOW" reports more
// tokens than the model's context (OpenCode then compacts), "WAIT" holds the answer until `release()`. After a tool
// result it answers "TOOL RESULT: <output>"; OpenCode's title and compaction requests get a title and a summary.
// Every request body is kept in `requests`.
import http from "node:http";

const textOf = (content) => (typeof content === "string" ? content : (content || []).map((p) => p.text || "").join(""));

/** @returns {Promise<import("./fake-opencode-server.d.mts").FakeOpencodeModel>} */
export async function startFakeOpencodeModel() {
	const requests = [];
	const held = [];
	let waiting;
	let n = 0;
	const server = http.createServer((req, res) => {
		let body = "";
		req.on("data", (c) => (body += c));
		req.on("end", () => {
			if (req.method !== "POST" || !req.url.includes("/chat/completions")) {
				res.writeHead(404);
				res.end();
				return;
			}
			let p = {};
			try {
				p = JSON.parse(body || "{}");
			} catch {}
			requests.push(p);
			const id = ++n;
			const messages = Array.isArray(p.messages) ? p.messages : [];
			const system = messages
				.filter((m) => m.role === "system")
				.map((m) => textOf(m.content))
				.join("\n");
			// OpenClaw sends its context after the prompt or a tool's result, as a user message of its own.
			const context = (m) => m.role === "user" && textOf(m.content).startsWith("<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>");
			const last = [...messages].reverse().find((m) => !context(m)) || {};
			const userText = textOf([...messages].reverse().find((m) => m.role === "user" && !context(m))?.content);
			const summarised = messages.some((m) => m.role === "assistant" && textOf(m.content).startsWith("SUMMARY OF EARLIER WORK"));
			let text = `Hello from the fake OpenCode model (${id}).`;
			let call;
			let promptTokens = 100;
			if (/title generator/i.test(system)) text = `Quokka title ${userText.trim().split(/\s+/).slice(0, 3).join(" ")}`;
			// OpenCode's compaction asks for a summary; its own prompt and OpenClaw's only mention summaries.
			else if (/summarization agent|summarize/i.test(system) && !/You are opencode|running inside OpenClaw/.test(system))
				text = "SUMMARY OF EARLIER WORK: the fake model ran a shell command and a sub-agent.";
			else if (last.role === "tool") text = `TOOL RESULT: ${textOf(last.content).slice(0, 300)}`;
			else if (/^CHILD /m.test(userText)) text = `Child agent here: ${userText.slice(0, 80)}`;
			else {
				const shell = /SHELL (.+)$/m.exec(userText);
				const task = /TASK (.+)$/m.exec(userText);
				const tool = /CALL (\S+) (\{.*\})$/m.exec(userText);
				if (tool) call = { name: tool[1], args: JSON.parse(tool[2]) };
				else if (shell) call = { name: "bash", args: { command: shell[1], description: "Runs the command" } };
				else if (task)
					call = { name: "task", args: { description: "Counts for the parent", prompt: `CHILD ${task[1]}`, subagent_type: "general" } };
				if (/OVERFLOW/.test(userText) && !summarised) promptTokens = 9000;
			}
			const answer = () => {
				const base = { id: `chatcmpl-${id}`, object: "chat.completion.chunk", created: 0, model: p.model };
				const send = (o) => res.write(`data: ${JSON.stringify({ ...base, ...o })}\n\n`);
				res.writeHead(200, { "content-type": "text/event-stream" });
				send({ choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] });
				if (call) {
					const delta = {
						tool_calls: [
							{ index: 0, id: `call_${id}`, type: "function", function: { name: call.name, arguments: JSON.stringify(call.args) } },
						],
					};
					send({ choices: [{ index: 0, delta, finish_reason: null }] });
					send({ choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] });
				} else {
					send({ choices: [{ index: 0, delta: { content: text }, finish_reason: null }] });
					send({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] });
				}
				const usage = {
					prompt_tokens: promptTokens,
					completion_tokens: 10,
					total_tokens: promptTokens + 10,
					prompt_tokens_details: { cached_tokens: 40 },
				};
				send({ choices: [], usage });
				res.end("data: [DONE]\n\n");
			};
			// OpenClaw puts the time before the prompt: "[Mon 2026-12-07 11:23 UTC] WAIT …".
			if (/^(?:\[[^\]]*\] )?WAIT\b/m.test(userText) && !/title generator/i.test(system) && last.role !== "tool") {
				held.push(answer);
				waiting?.();
			} else answer();
		});
	});
	await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
	const url = `http://127.0.0.1:${server.address().port}/v1`;
	return {
		url,
		requests,
		held: () => (held.length > 0 ? Promise.resolve() : new Promise((resolve) => (waiting = resolve))),
		release() {
			for (const answer of held.splice(0)) answer();
		},
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}

/** opencode.json for an XDG config dir pointing OpenCode at the fake server; a 5,000-token context makes OVERFLOW compact. */
export function fakeOpencodeConfig(url) {
	return JSON.stringify({
		$schema: "https://opencode.ai/config.json",
		provider: {
			fake: {
				npm: "@ai-sdk/openai-compatible",
				name: "Fake",
				options: { baseURL: url, apiKey: "fake-key" },
				models: { m: { name: "Fake model", limit: { context: 5000, output: 1000 } } },
			},
		},
		model: "fake/m",
		autoupdate: false,
		share: "disabled",
	});
}
