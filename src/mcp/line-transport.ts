/**
 * The MCP server's stdio: one JSON-RPC message per line, as the SDK's `StdioServerTransport` reads them, but a
 * message it cannot take never ends the server. The SDK's transport closed itself on a line over 10 MiB (and every
 * call pending on it was lost) and answered a malformed line with nothing; here a line over `maxLineBytes` is
 * dropped as it streams in (never held whole), and it or a line that is no JSON-RPC message is answered with a
 * JSON-RPC error — to its id when one can be read from its start, so that the call waiting on it ends — and the
 * lines after it are read as before.
 */

import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

/** The SDK's own limit for one message. */
const MAX_LINE_BYTES = 10 * 1024 * 1024;

/** JSON-RPC's codes: the line is no JSON, or no request. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/** The id a message's first bytes name (`"id": 7`, `"id": "a"`), if they do. */
function idIn(head: string): string | number | null {
	const m = /"id"\s*:\s*(-?\d{1,15}(?![\d.eE])|"(?:[^"\\]|\\.){0,200}")/.exec(head);
	if (!m) return null;
	try {
		return JSON.parse(m[1]) as string | number;
	} catch {
		return null;
	}
}

export class LineTransport implements Transport {
	onmessage?: (message: JSONRPCMessage) => void;
	onerror?: (error: Error) => void;
	onclose?: () => void;
	/** The line being read, in chunks; or, while one over the limit streams by, its first bytes only. */
	private pending: Buffer[] = [];
	private pendingBytes = 0;
	private dropping = false;
	private readonly ondata = (chunk: Buffer) => this.take(chunk);
	private readonly onstreamerror = (error: Error) => this.onerror?.(error);

	constructor(
		private readonly input: NodeJS.ReadableStream = process.stdin,
		private readonly output: NodeJS.WritableStream = process.stdout,
		private readonly maxLineBytes = MAX_LINE_BYTES,
	) {}

	async start(): Promise<void> {
		this.input.on("data", this.ondata);
		this.input.on("error", this.onstreamerror);
	}

	private take(chunk: Buffer): void {
		let at = 0;
		for (let nl = chunk.indexOf(10, at); nl !== -1; nl = chunk.indexOf(10, at)) {
			this.add(chunk.subarray(at, nl));
			this.endLine();
			at = nl + 1;
		}
		if (at < chunk.length) this.add(chunk.subarray(at));
	}

	private add(part: Buffer): void {
		if (part.length === 0) return;
		if (this.dropping) return;
		this.pending.push(part);
		this.pendingBytes += part.length;
		if (this.pendingBytes > this.maxLineBytes) {
			// Keep its start, to answer its id; the rest streams by unread.
			this.pending = [Buffer.concat(this.pending).subarray(0, 4096)];
			this.dropping = true;
		}
	}

	private endLine(): void {
		const bytes = Buffer.concat(this.pending);
		const dropped = this.dropping;
		this.pending = [];
		this.pendingBytes = 0;
		this.dropping = false;
		const line = bytes.toString("utf8").replace(/\r$/, "");
		if (dropped) {
			this.refuse(idIn(line), INVALID_REQUEST, `message over ${this.maxLineBytes} bytes: not read`);
			return;
		}
		if (line.trim() === "") return;
		let value: unknown;
		try {
			value = JSON.parse(line);
		} catch {
			this.refuse(idIn(line.slice(0, 4096)), PARSE_ERROR, "message is not JSON");
			return;
		}
		const message = JSONRPCMessageSchema.safeParse(value);
		if (!message.success) {
			const id = (value as { id?: unknown } | null)?.id;
			this.refuse(typeof id === "string" || typeof id === "number" ? id : null, INVALID_REQUEST, "message is not JSON-RPC 2.0");
			return;
		}
		this.onmessage?.(message.data);
	}

	private refuse(id: string | number | null, code: number, why: string): void {
		this.onerror?.(new Error(`lookback mcp: ${why}`));
		void this.send({ jsonrpc: "2.0", id, error: { code, message: `lookback mcp: ${why}` } } as unknown as JSONRPCMessage);
	}

	send(message: JSONRPCMessage): Promise<void> {
		return new Promise((resolve) => {
			if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
			else this.output.once("drain", () => resolve());
		});
	}

	async close(): Promise<void> {
		this.input.off("data", this.ondata);
		this.input.off("error", this.onstreamerror);
		if (this.input.listenerCount("data") === 0) this.input.pause();
		this.pending = [];
		this.onclose?.();
	}
}
