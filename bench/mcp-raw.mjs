// `lookback mcp` of a build on pipes, spoken to in raw JSON-RPC lines (no SDK client between the bench and the
// server): what bench/mcp.mjs and bench/mcp-ab.mjs time.
import { spawn } from "node:child_process";

/** Start `node CLI mcp ...args`; requests answer with the server's message of the same id. */
export function rawMcpServer(cli, args) {
	const child = spawn(process.execPath, [cli, "mcp", ...args], { stdio: ["pipe", "pipe", "ignore"] });
	const waiting = new Map();
	let buffer = "";
	child.stdout.on("data", (chunk) => {
		buffer += chunk;
		for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
			const message = JSON.parse(buffer.slice(0, nl));
			buffer = buffer.slice(nl + 1);
			waiting.get(message.id)?.(message);
			waiting.delete(message.id);
		}
	});
	let id = 0;
	const exited = new Promise((resolve) => child.on("exit", resolve));
	return {
		pid: child.pid,
		request(method, params) {
			const n = ++id;
			const answered = new Promise((resolve) => waiting.set(n, resolve));
			child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: n, method, params })}\n`);
			return answered;
		},
		notify: (method) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method })}\n`),
		close() {
			child.stdin.end();
			return exited;
		},
	};
}
