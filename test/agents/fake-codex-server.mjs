// A fake OpenAI Responses API on 127.0.0.1 for driving the real `codex` binary in tests (`POST /v1/responses`,
// answered as SSE). The last user text "SHELL <command>" makes it call the shell tool with that command, "PATCH
// <base64>" the freeform apply_patch tool with the decoded patch (a custom tool call, which Codex offers to a model it
// knows, `-m gpt-5.5`, never to "fake"); after a tool output it answers "TOOL RESULT: <output>"; a compaction request
// (the summarisation prompt) gets a summary; "SPAWN <task>" spawns a sub-agent forked with the history, whose turn
// runs the task's "SHELL <command>" if it has one, and waits for it. Every request body is kept in `requests`.
import http from "node:http";

const textOf = (content) => (typeof content === "string" ? content : (content || []).map((p) => p.text || "").join(""));

/** @returns {Promise<{ url: string, requests: any[], close: () => Promise<void> }>} */
export async function startFakeCodexModel() {
	const requests = [];
	let n = 0;
	const server = http.createServer((req, res) => {
		let body = "";
		req.on("data", (c) => (body += c));
		req.on("end", () => {
			if (process.env.FAKE_CODEX_LOG) console.error("FAKE", req.method, req.url, body.length);
			if (req.method !== "POST" || !req.url.includes("/responses")) {
				if (req.url.includes("/models")) {
					res.writeHead(200, { "content-type": "application/json" });
					res.end(JSON.stringify({ object: "list", data: [{ id: "fake", object: "model" }], models: [] }));
					return;
				}
				res.writeHead(404);
				res.end();
				return;
			}
			let p = {};
			try {
				p = JSON.parse(body || "{}");
			} catch {}
			requests.push(p);
			const input = Array.isArray(p.input) ? p.input : [];
			const last = input.at(-1) || {};
			const id = ++n;
			const items = [];
			const lastUser = [...input].reverse().find((i) => i.type === "message" && i.role === "user");
			const userText = textOf(lastUser?.content);
			const call = (name, args, namespace) => ({
				type: "function_call",
				id: `fc_${id}`,
				call_id: `call_${id}`,
				name,
				...(namespace ? { namespace } : {}),
				arguments: JSON.stringify(args),
			});
			if (last.type === "function_call_output" || last.type === "custom_tool_call_output") {
				const out = typeof last.output === "string" ? last.output : JSON.stringify(last.output);
				const spawned = /"agent_id"\s*:\s*"([^"]+)"/.exec(out) ?? /"(?:id|target)"\s*:\s*"([^"]+)"/.exec(out);
				const previous = input.find((i) => i.type === "function_call" && i.call_id === last.call_id);
				if (previous?.name === "spawn_agent" && spawned)
					items.push(toolCall(p.tools, "wait_agent", { targets: [spawned[1]], timeout_ms: 20000 }, call, id));
				else items.push(message(id, `TOOL RESULT: ${out.slice(0, 300)}`));
			} else if (/summar/i.test(userText) && /checkpoint|handoff|compact/i.test(userText)) {
				items.push(message(id, "SUMMARY OF EARLIER WORK: the fake model ran a shell command."));
			} else if (/^CHILD /m.test(userText)) {
				// A sub-agent's own turn: a shell call when its task names one, else an answer.
				const shell = /SHELL (.+)$/m.exec(userText);
				items.push(shell ? call("exec_command", { cmd: shell[1] }) : message(id, `Child agent here: ${userText.slice(0, 80)}`));
			} else {
				const shell = /SHELL (.+)$/m.exec(userText);
				const named = /CALL (\S+) (\{.*\})$/m.exec(userText);
				const spawn = /SPAWN (.+)$/m.exec(userText);
				const patch = /PATCH ([A-Za-z0-9+/=]+)$/m.exec(userText);
				if (patch) items.push(customCall(p.tools, "apply_patch", Buffer.from(patch[1], "base64").toString("utf8"), id));
				else if (named) items.push(toolCall(p.tools, named[1], JSON.parse(named[2]), call, id));
				// 0.17x offers the multi-agent tools in a namespace (multi_agent_v1), 0.128 at the top level; a SHELL
				// after SPAWN is the sub-agent's to run.
				else if (spawn) items.push(toolCall(p.tools, "spawn_agent", { message: `CHILD ${spawn[1]}`, fork_context: true }, call, id));
				else if (shell) items.push(call("exec_command", { cmd: shell[1] }));
				else items.push(message(id, `Hello from the fake Codex model (${id}).`));
			}
			res.writeHead(200, { "content-type": "text/event-stream" });
			const send = (type, o) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...o })}\n\n`);
			send("response.created", { response: { id: `resp_${id}` } });
			for (const item of items) send("response.output_item.done", { item });
			send("response.completed", {
				response: {
					id: `resp_${id}`,
					usage: { input_tokens: 100, input_tokens_details: null, output_tokens: 10, output_tokens_details: null, total_tokens: 110 },
				},
			});
			res.end();
		});
	});
	await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
	const url = `http://127.0.0.1:${server.address().port}/v1`;
	return { url, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A call of a tool the request offers by its name (an MCP server's tool may sit in a namespace); a message when none is. */
function toolCall(tools, name, args, call, id) {
	for (const tool of tools || []) {
		if (tool.name === name) return call(name, args);
		const inner = (tool.tools || []).find((t) => t.name === name || `${tool.name}__${t.name}` === name);
		if (inner) return call(inner.name, args, tool.name);
	}
	return message(id, `no tool ${name} among ${(tools || []).map((t) => t.name).join(", ")}`);
}

/** A call of a freeform (custom) tool the request offers, its input as given; a message when none is. */
function customCall(tools, name, input, id) {
	if (!(tools || []).some((t) => t.type === "custom" && t.name === name))
		return message(id, `no custom tool ${name} among ${(tools || []).map((t) => t.name).join(", ")}`);
	return { type: "custom_tool_call", id: `ctc_${id}`, call_id: `call_${id}`, name, input };
}

function message(id, text) {
	return { type: "message", role: "assistant", id: `msg_${id}`, content: [{ type: "output_text", text, annotations: [] }] };
}

/** config.toml for a CODEX_HOME pointing Codex at the fake server. */
export function fakeCodexConfig(url) {
	return [
		'model = "fake"',
		'model_provider = "fake"',
		'approval_policy = "never"',
		'sandbox_mode = "danger-full-access"',
		"[model_providers.fake]",
		'name = "fake"',
		`base_url = "${url}"`,
		'env_key = "FAKE_KEY"',
		'wire_api = "responses"',
		"request_max_retries = 0",
		"stream_max_retries = 0",
		"",
	].join("\n");
}
