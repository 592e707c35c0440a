// A fake Anthropic Messages API on 127.0.0.1 for driving the real `claude` binary in tests. The last user text
// "CALL <tool> <json>" makes it answer with that tool use; after a tool result it answers "TOOL RESULT: <text>";
// any other request (titles, summaries, side calls) gets `reply(last user text)` or a plain answer. Every request is kept.
import http from "node:http";

const textOf = (c) => (typeof c === "string" ? c : (c || []).map((p) => (p.type === "text" ? p.text : "")).join(""));
const resultOf = (c) =>
	(Array.isArray(c) ? c : [])
		.filter((p) => p.type === "tool_result")
		.map((p) => textOf(p.content))
		.join("\n");

/**
 * `usage(n)`: the usage of the n-th answer (from 1), as the API reports it (cache writes by duration, speed), else
 * 100 input and 20 output tokens.
 * @param {{ reply?: (lastUserText: string) => string | undefined, usage?: (n: number) => Record<string, unknown> }} [options] @returns {Promise<{ url: string, requests: any[], close: () => Promise<void> }>} */
export async function startFakeAnthropic(options = {}) {
	const requests = [];
	let n = 0;
	let answers = 0;
	const server = http.createServer((req, res) => {
		let body = "";
		req.on("data", (c) => (body += c));
		req.on("end", () => {
			if (req.method !== "POST" || !req.url?.startsWith("/v1/messages")) {
				res.writeHead(404, { "content-type": "application/json" });
				res.end('{"type":"error","error":{"type":"not_found_error","message":"not here"}}');
				return;
			}
			if (req.url.startsWith("/v1/messages/count_tokens")) {
				res.writeHead(200, { "content-type": "application/json" });
				res.end('{"input_tokens":100}');
				return;
			}
			const p = JSON.parse(body || "{}");
			requests.push(p);
			// Newer clients put role "system" messages after the user's: the turn is the last user message.
			const last = (p.messages || []).findLast((m) => m.role === "user") || {};
			const result = resultOf(last.content);
			const blocks = typeof last.content === "string" ? [{ type: "text", text: last.content }] : last.content || [];
			const typed = blocks.findLast((b) => b.type === "text" && /^CALL /.test(b.text))?.text ?? "";
			let text =
				options.reply?.(blocks.map((b) => (b.type === "text" ? b.text : "")).join("\n")) ?? "Hello from the fake Anthropic server.";
			let call = null;
			if (result) text = `TOOL RESULT: ${result.slice(0, 200)}`;
			else {
				const m = /CALL (\S+) (\{.*\})/s.exec(typed);
				if (m && (p.tools || []).some((t) => t.name === m[1])) call = { id: `toolu_fake${++n}`, name: m[1], input: JSON.parse(m[2]) };
			}
			const id = `msg_fake${++n}`;
			const usage = options.usage?.(++answers) ?? {
				input_tokens: 100,
				output_tokens: 20,
				cache_read_input_tokens: 0,
				cache_creation_input_tokens: 0,
			};
			const content = call ? [{ type: "tool_use", ...call }] : [{ type: "text", text }];
			const stop = call ? "tool_use" : "end_turn";
			if (!p.stream) {
				res.writeHead(200, { "content-type": "application/json" });
				res.end(JSON.stringify({ id, type: "message", role: "assistant", model: p.model, content, stop_reason: stop, usage }));
				return;
			}
			res.writeHead(200, { "content-type": "text/event-stream" });
			const send = (event, data) => res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
			send("message_start", { message: { id, type: "message", role: "assistant", model: p.model, content: [], stop_reason: null, usage } });
			if (call) {
				send("content_block_start", { index: 0, content_block: { type: "tool_use", id: call.id, name: call.name, input: {} } });
				send("content_block_delta", { index: 0, delta: { type: "input_json_delta", partial_json: JSON.stringify(call.input) } });
			} else {
				send("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
				send("content_block_delta", { index: 0, delta: { type: "text_delta", text } });
			}
			send("content_block_stop", { index: 0 });
			send("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
			send("message_stop", {});
			res.end();
		});
	});
	await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
	};
}
