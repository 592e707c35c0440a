/**
 * `lookback mcp`: the search as an MCP server on stdio, for every agent that loads tools over MCP. A thin face:
 * the tools' schemas (tool-specs.ts), their runs over the core's replies (tool-runs.ts), the index kept fresh in
 * the background by the host's indexer process (src/node/host-index.ts). stdout carries only protocol messages;
 * logs go to stderr.
 */

// The SDK's low-level Server rather than McpServer: our input schemas are plain JSON Schema, checked by
// schema.ts with a one-line reason for the model, where McpServer wants zod shapes and answers a bad
// argument with a dump of validation issues.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
// The core's few modules the handshake needs, not its barrel: the rest (search, replies, the engine) loads with
// the tools' runs once the client has initialized (tool-runs.ts, below), when the index opens anyway.
import { AGENTS } from "../agents/registry.js";
import { errorMessage, LookbackError } from "../core/errors.js";
import { loadRedaction, redactedReply } from "../core/redact/redact.js";
import { boundedJson } from "../core/replies/budget.js";
import { HostIndex } from "../node/host-index.js";
import type { NodeIndexOptions } from "../node/open.js";
import { LineTransport } from "./line-transport.js";
import { checkArguments } from "./schema.js";
import type { ToolContext } from "./tool-runs.js";
import { TOOL_SPECS } from "./tool-specs.js";

export interface McpServerOptions {
	index: NodeIndexOptions;
	version: string;
	/** The working directory whose recently changed sessions are taken to be the caller's. */
	cwd: string;
	log: (line: string) => void;
	/** Redact every reply unless a call says `redact: false` (default true; the person's `LOOKBACK_REDACT=0` turns it off). */
	redact?: boolean;
	/** Answer from a team's bucket (`--remote`, `LOOKBACK_REMOTE`) rather than this machine's index. */
	remote?: string;
}

const INSTRUCTIONS = `lookback searches every past coding-agent session on this machine (${AGENTS.map((a) => a.label).join(", ")}). Use search_sessions when the user refers to earlier work ("like we did last week", "the bug we fixed", "what did we decide about X") instead of asking them to paste it; then read_session to read what a result found.`;

const NO_ELICITATION: jsonSchemaValidator = {
	getValidator() {
		throw new Error("lookback mcp asks the client nothing: there is no answer to validate");
	},
};

/** A tool error: one line for the model, never a protocol error or a crash. */
function toolError(error: unknown): CallToolResult {
	const message = errorMessage(error).replace(/\s*\n\s*/g, " ");
	return { content: [{ type: "text", text: message.startsWith("lookback: ") ? message : `lookback: ${message}` }], isError: true };
}

/** Serve until stdin closes (the client went away) or the process is told to stop. */
export async function serveMcp(options: McpServerOptions): Promise<void> {
	// A client searches in bursts, and between them most often nothing changed: the folders are watched.
	const index = new HostIndex(options.index, { watch: true });
	const ctx: ToolContext = { index, cwd: options.cwd, ...(options.remote ? { remote: options.remote } : {}) };
	let runs: Promise<typeof import("./tool-runs.js")> | undefined;
	const toolRuns = () => (runs ??= import("./tool-runs.js"));
	const server = new Server(
		{ name: "lookback", version: options.version },
		{
			capabilities: { tools: {} },
			instructions: INSTRUCTIONS,
			// The SDK checks a client's answers to elicitation with Ajv, built at start-up unless given this; the
			// server never asks the client anything.
			jsonSchemaValidator: NO_ELICITATION,
		},
	);

	// What a reply may import later (the redaction rules, the index's opener, the indexer's work in this process)
	// is loaded once the client has its tools: this server runs as long as its client, and an upgrade replaces
	// dist/ under it, removing the hashed chunks it was built with (scripts/build.mjs). Not before the list is
	// answered, which a client waits for at its start (bench/mcp.mjs). A call waits for it (and starts it, for a
	// client that never lists), so that once one is answered nothing is left to import.
	let loading: Promise<void> | undefined;
	const loadTheRest = () => {
		loading ??= Promise.all([loadRedaction(), index.preload()]).then(
			() => undefined,
			(error: unknown) => options.log(`lookback mcp: could not load its modules: ${errorMessage(error)}`),
		);
		return loading;
	};

	server.setRequestHandler(ListToolsRequestSchema, () => {
		// Once this turn, in which the answer is written, is over.
		setImmediate(loadTheRest);
		return {
			tools: TOOL_SPECS.map((t) => ({
				name: t.name,
				title: t.title,
				description: t.description,
				inputSchema: t.inputSchema,
				annotations: { readOnlyHint: true, openWorldHint: false },
			})),
		};
	});

	server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
		await loadTheRest();
		const { name, arguments: args } = request.params;
		const spec = TOOL_SPECS.find((t) => t.name === name);
		if (!spec)
			return toolError(new LookbackError("bad-argument", `unknown tool "${name}" (tools: ${TOOL_SPECS.map((t) => t.name).join(", ")})`));
		try {
			const checked = checkArguments(spec.inputSchema, args);
			const reply = await (await toolRuns()).TOOL_RUNS[spec.name](ctx, checked);
			// Redacted before the reply is cut to its budget; index_status has no session text.
			const redact =
				"redact" in spec.inputSchema.properties && (typeof checked.redact === "boolean" ? checked.redact : options.redact !== false);
			if (redact) await loadRedaction();
			const { text, value } = boundedJson(redact ? redactedReply(reply) : reply);
			return { content: [{ type: "text", text }], structuredContent: value as Record<string, unknown> };
		} catch (error) {
			if (!(error instanceof LookbackError))
				options.log(`lookback mcp: ${spec.name} failed: ${(error as Error).stack ?? errorMessage(error)}`);
			return toolError(error);
		}
	});

	// The handshake is answered before anything is opened; the first index starts once it is done, and the tools'
	// runs load meanwhile.
	// A team's server (--remote) reads shards, not this machine's index: no first sync, its runs over the shards load.
	server.oninitialized = () =>
		setImmediate(() => {
			if (!options.remote) index.warmUp();
			toolRuns()
				.then(() => (options.remote ? import("./remote-runs.js") : undefined))
				.catch(() => undefined);
		});

	const closed = new Promise<void>((resolve) => {
		const done = () => resolve();
		process.stdin.once("end", done);
		process.stdin.once("close", done);
		process.on("SIGINT", done);
		process.on("SIGTERM", done);
		server.onclose = done;
	});
	server.onerror = (error) => options.log(`lookback mcp: ${errorMessage(error)}`);
	await server.connect(new LineTransport());
	options.log(`lookback mcp ${options.version}: serving on stdio (working directory ${options.cwd})`);
	await closed;
	index.close();
	await server.close().catch(() => undefined);
}
