#!/usr/bin/env node
// Writes the committed session fixtures under test/fixtures/sessions/ with the REAL
// SessionManager of @mariozechner/pi-coding-agent, plus two hand-written legacy files (v1, v2).
//
//   npm run samples        (= node scripts/make-samples.mjs)
//
// - Deletes and regenerates test/fixtures/sessions/ (including its README.md) every run.
// - Deterministic: the clock (Date / Date.now) and the random sources Pi uses for ids
//   (crypto.randomUUID for entry ids, crypto.getRandomValues for the UUIDv7 session ids)
//   are replaced by fakes, so re-running gives byte-identical output.
// - Layout mirrors <agentDir>/sessions/: --home-dev-projects-<name>--/<fileTimestamp>_<sessionId>.jsonl
// - Only fake paths (/home/dev/...) end up in the files; fork headers' parentSession is rewritten.
// - After writing, the planted facts listed in README.md are verified; the script exits 1 if one fails.

import nodeCrypto from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { homedir } from "node:os";
import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { SessionManager } from "@mariozechner/pi-coding-agent";

const { generateDiffString } = await import(
	new URL("./core/tools/edit-diff.js", import.meta.resolve("@mariozechner/pi-coding-agent")).href
);

const REPO = fileURLToPath(new URL("..", import.meta.url));
const OUT = join(REPO, "test", "fixtures", "sessions");
const FAKE_AGENT_SESSIONS = "/home/dev/.pi/agent/sessions";

// ---------------------------------------------------------------------------------------------
// Determinism: seeded PRNG for ids, fake clock
// ---------------------------------------------------------------------------------------------

function mulberry32(seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
const rand = mulberry32(20261003);
const randInt = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
const randBytes = (n) => Uint8Array.from({ length: n }, () => Math.floor(rand() * 256));
const hex = (bytes) => Buffer.from(bytes).toString("hex");
const B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const base62 = (n) => Array.from({ length: n }, () => B62[Math.floor(rand() * 62)]).join("");

function fakeRandomUUID() {
	const b = randBytes(16);
	b[6] = (b[6] & 0x0f) | 0x40;
	b[8] = (b[8] & 0x3f) | 0x80;
	const h = hex(b);
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
// session-manager.js does `import { randomUUID } from "crypto"` (live binding of a builtin):
// patch the CommonJS export and sync the ESM bindings.
nodeCrypto.randomUUID = fakeRandomUUID;
syncBuiltinESMExports();
// uuid's v7() (session ids) draws its random bits from globalThis.crypto.getRandomValues.
globalThis.crypto.getRandomValues = (arr) => {
	const view = new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength);
	view.set(randBytes(view.length));
	return arr;
};

const RealDate = Date;
let NOW = RealDate.parse("2026-10-01T00:00:00.000Z");
class FakeDate extends RealDate {
	constructor(...args) {
		if (args.length === 0) super(NOW);
		else super(...args);
	}
	static now() {
		return NOW;
	}
}
globalThis.Date = FakeDate;
/** Jump the clock forward to an ISO time (never backwards: UUIDv7 state must stay monotonic). */
function at(iso) {
	const t = RealDate.parse(iso);
	if (t < NOW) throw new Error(`clock would go backwards to ${iso}`);
	NOW = t;
}
const tick = (ms) => {
	NOW += Math.max(1, Math.round(ms));
};
const iso = (ms) => new RealDate(ms).toISOString();

// ---------------------------------------------------------------------------------------------
// Session builder on top of the real SessionManager
// ---------------------------------------------------------------------------------------------

const SONNET = { api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5", price: [3, 15, 0.3, 3.75] };
const CODEX = { api: "openai-responses", provider: "openai", model: "gpt-5.1-codex", price: [1.25, 10, 0.125, 0] };

const folderFor = (cwd) => `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;

const textLen = (content) => content.reduce((n, b) => n + (b.text ?? b.thinking ?? JSON.stringify(b.arguments ?? "")).length, 0);

class Session {
	/** @param {SessionManager} sm */
	constructor(sm, files = {}) {
		this.sm = sm;
		this.files = { ...files };
		this.model = SONNET;
		this.ctx = 4200; // tokens of system prompt + tools
	}
	static create(cwd, files) {
		return new Session(SessionManager.create(cwd, join(OUT, folderFor(cwd))), files);
	}
	get file() {
		return this.sm.getSessionFile();
	}
	get leaf() {
		return this.sm.getLeafId();
	}
	/** What pi writes when a session starts: model_change (root) then thinking_level_change. */
	start(thinkingLevel, model = SONNET) {
		this.model = model;
		tick(40);
		this.sm.appendModelChange(model.provider, model.model);
		tick(2);
		this.sm.appendThinkingLevelChange(thinkingLevel);
	}
	switchModel(model, thinkingLevel) {
		tick(randInt(4000, 15000));
		this.model = model;
		this.sm.appendModelChange(model.provider, model.model);
		if (thinkingLevel) {
			tick(randInt(1500, 4000));
			this.sm.appendThinkingLevelChange(thinkingLevel);
		}
	}
	user(text, extra = [], { pause = randInt(15, 80) * 1000 } = {}) {
		tick(pause);
		const content = [{ type: "text", text }, ...extra];
		this.ctx += Math.ceil(text.length / 4) + extra.length * 800;
		tick(3);
		return this.sm.appendMessage({ role: "user", content, timestamp: NOW - 3 });
	}
	/**
	 * One assistant message followed by the results of its tool calls.
	 * parts: { think?, text?, calls?: [{ name, args, out, isError?, details?, ms? }], stopReason? }
	 */
	step({ think, text, calls = [], stopReason }) {
		const m = this.model;
		const started = NOW + randInt(300, 900);
		const content = [];
		if (think) content.push({ type: "thinking", thinking: think, thinkingSignature: Buffer.from(randBytes(96)).toString("base64") });
		if (text) content.push({ type: "text", text });
		const callBlocks = calls.map((c) => ({
			type: "toolCall",
			id: m.provider === "anthropic" ? `toolu_01${base62(22)}` : `call_${base62(24)}|fc_${hex(randBytes(20))}`,
			name: c.name,
			arguments: c.args,
		}));
		content.push(...callBlocks);
		const output = Math.ceil(textLen(content) / 4) + 12;
		const cacheWrite = randInt(300, 1400);
		const input = randInt(2, 9);
		const cacheRead = Math.max(0, this.ctx - cacheWrite);
		const [pIn, pOut, pCR, pCW] = m.price;
		const cost = {
			input: (input * pIn) / 1e6,
			output: (output * pOut) / 1e6,
			cacheRead: (cacheRead * pCR) / 1e6,
			cacheWrite: (cacheWrite * pCW) / 1e6,
		};
		cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
		for (const k of Object.keys(cost)) cost[k] = Number(cost[k].toFixed(8));
		tick(started - NOW + 1200 + output * 18);
		const msg = {
			role: "assistant",
			content,
			api: m.api,
			provider: m.provider,
			model: m.model,
			usage: { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite, cost },
			stopReason: stopReason ?? (calls.length ? "toolUse" : "stop"),
			timestamp: started,
			responseId: m.provider === "anthropic" ? `msg_01${base62(22)}` : `resp_${hex(randBytes(24))}`,
		};
		this.ctx += output;
		const assistantId = this.sm.appendMessage(msg);
		const resultIds = calls.map((c, i) => {
			tick(c.ms ?? randInt(20, 400));
			const text = c.out;
			this.ctx += Math.ceil(text.length / 4);
			const result = {
				role: "toolResult",
				toolCallId: callBlocks[i].id,
				toolName: c.name,
				content: [{ type: "text", text }],
				details: c.details,
				isError: !!c.isError,
				timestamp: NOW,
			};
			return this.sm.appendMessage(result);
		});
		return { assistantId, resultIds };
	}
	say(text, opts = {}) {
		return this.step({ ...opts, text }).assistantId;
	}
	/** `!cmd` typed by the user: a bashExecution message (no assistant involved). */
	bashExecution(command, output, { exitCode, cancelled = false, truncated = false, excludeFromContext, pause, ms = 800 } = {}) {
		tick(pause ?? randInt(10, 40) * 1000);
		const started = NOW;
		tick(ms);
		const msg = { role: "bashExecution", command, output, exitCode, cancelled, truncated, timestamp: started };
		if (excludeFromContext) msg.excludeFromContext = true;
		return this.sm.appendMessage(msg);
	}

	// --- tool call specs (the virtual file system keeps edits consistent with earlier reads) ---
	read(path) {
		if (!(path in this.files)) throw new Error(`no virtual file ${path}`);
		return { name: "read", args: { path }, out: this.files[path], ms: randInt(8, 40) };
	}
	write(path, content) {
		this.files[path] = content;
		return { name: "write", args: { path, content }, out: `Successfully wrote ${content.length} bytes to ${path}`, ms: randInt(5, 20) };
	}
	edit(path, edits) {
		const before = this.files[path];
		if (before === undefined) throw new Error(`no virtual file ${path}`);
		let after = before;
		for (const [oldText, newText] of edits) {
			if (after.split(oldText).length !== 2) throw new Error(`edit in ${path}: oldText not unique/found:\n${oldText}`);
			after = after.replace(oldText, () => newText);
		}
		this.files[path] = after;
		const { diff, firstChangedLine } = generateDiffString(before, after);
		return {
			name: "edit",
			args: { path, edits: edits.map(([oldText, newText]) => ({ oldText, newText })) },
			out: `Successfully replaced ${edits.length} block(s) in ${path}.`,
			details: { diff, firstChangedLine },
			ms: randInt(10, 40),
		};
	}
	bash(command, output, { exitCode = 0, ms = randInt(400, 4000), timeout } = {}) {
		const args = timeout ? { command, timeout } : { command };
		if (exitCode !== 0) {
			return { name: "bash", args, out: `${output}\n\nCommand exited with code ${exitCode}`, isError: true, ms };
		}
		return { name: "bash", args, out: output || "(no output)", ms };
	}
}

// ---------------------------------------------------------------------------------------------
// Project: webshop
// ---------------------------------------------------------------------------------------------

const WEBSHOP = "/home/dev/projects/webshop";

const webshopFiles = {
	"src/payments/webhookClient.ts": `import { createHmac } from "node:crypto";
import { logger } from "../logger.js";
import { stateStore } from "../state/stateStore.js";
import type { PaymentEvent } from "./types.js";

export interface WebhookClientOptions {
  endpoint: string;
  signingSecret: string;
  timeoutMs?: number;
}

function sign(body: string, secret: string): string {
  return createHmac("sha256", secret).update(body).digest("hex");
}

export class PaymentWebhookClient {
  constructor(private readonly opts: WebhookClientOptions) {}

  async deliver(event: PaymentEvent): Promise<void> {
    const body = JSON.stringify(event);
    const res = await fetch(this.opts.endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-webshop-signature": sign(body, this.opts.signingSecret),
      },
      body,
      signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000),
    });
    if (!res.ok) {
      logger.error({ eventId: event.id, status: res.status }, "webhook delivery failed");
      return;
    }
    await stateStore.set(\`webhook:delivered:\${event.id}\`, Date.now());
  }
}
`,
	"src/state/stateStore.ts": `import Redis from "ioredis";
import { config } from "../config.js";

const redis = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });

/** Small key/value facade over Redis used by payments, carts and the order queue. */
export const stateStore = {
  async get<T = unknown>(key: string): Promise<T | undefined> {
    const raw = await redis.get(key);
    return raw === null ? undefined : (JSON.parse(raw) as T);
  },
  async set(key: string, value: unknown, ttlSeconds?: number): Promise<void> {
    const raw = JSON.stringify(value);
    if (ttlSeconds) await redis.set(key, raw, "EX", ttlSeconds);
    else await redis.set(key, raw);
  },
  async incr(key: string, ttlSeconds?: number): Promise<number> {
    const n = await redis.incr(key);
    if (ttlSeconds && n === 1) await redis.expire(key, ttlSeconds);
    return n;
  },
  async del(key: string): Promise<void> {
    await redis.del(key);
  },
};
`,
	"src/queue/orderQueue.ts": `import { Queue, Worker, type Job } from "bullmq";
import { connection } from "./redis.js";
import { fulfilOrder } from "../orders/fulfilment.js";
import { logger } from "../logger.js";

export interface FulfilmentJob {
  orderId: string;
  warehouse: "BER-1" | "AMS-2";
}

export const orderQueue = new Queue<FulfilmentJob>("order-fulfilment", {
  connection,
  defaultJobOptions: { attempts: 5, backoff: { type: "exponential", delay: 2_000 } },
});

export const orderWorker = new Worker<FulfilmentJob>(
  "order-fulfilment",
  async (job: Job<FulfilmentJob>) => {
    await fulfilOrder(job.data.orderId, job.data.warehouse);
  },
  { connection, concurrency: 8 },
);

orderWorker.on("failed", (job, err) => {
  logger.error({ orderId: job?.data.orderId, err }, "fulfilment job failed");
});
`,
};

const RETRY_POLICY_TS = `export interface RetryPolicyOptions {
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
}

/** Exponential backoff for outbound webhooks: 250ms, 500ms, 1s, ... capped at 30s. */
export class RetryPolicy {
  readonly maxAttempts: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;

  constructor({ maxAttempts = 5, baseDelayMs = 250, maxDelayMs = 30_000 }: RetryPolicyOptions = {}) {
    this.maxAttempts = maxAttempts;
    this.baseDelayMs = baseDelayMs;
    this.maxDelayMs = maxDelayMs;
  }

  /** 408, 429 and 5xx are worth retrying; other 4xx mean the payload is wrong. */
  shouldRetry(status: number, attempt: number): boolean {
    if (attempt >= this.maxAttempts) return false;
    return status === 408 || status === 429 || status >= 500;
  }

  delayFor(attempt: number): number {
    return Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (attempt - 1));
  }
}
`;

function makeLinearSession() {
	at("2026-10-03T08:14:05.000Z");
	const s = Session.create(WEBSHOP, webshopFiles);
	s.start("medium");
	s.user(
		"Payment webhook deliveries to the PSP fail intermittently with 503 and we just drop them. Add a RetryPolicy with exponential backoff to src/payments/webhookClient.ts, and persist the attempt count in the stateStore so a deploy/restart doesn't reset it.",
	);
	s.step({
		text: "Let me look at the current client and the state store first.",
		calls: [s.read("src/payments/webhookClient.ts"), s.read("src/state/stateStore.ts")],
	});
	tick(20_000);
	s.sm.appendSessionInfo("Retry policy for payment webhooks");
	const wrote = s.step({
		text: "`deliver()` logs and returns on any non-2xx, so a 503 is lost. `stateStore.incr(key, ttl)` already exists, which is exactly what we need for a restart-safe attempt counter. I'll put the backoff logic in its own class so it can be unit-tested.",
		calls: [s.write("src/payments/retryPolicy.ts", RETRY_POLICY_TS)],
	});
	s.step({
		text: "Now wire it into the client. Attempts are counted under `webhook:attempts:<eventId>` with a 24h TTL.",
		calls: [
			s.edit("src/payments/webhookClient.ts", [
				[
					`import { stateStore } from "../state/stateStore.js";\n`,
					`import { stateStore } from "../state/stateStore.js";\nimport { RetryPolicy } from "./retryPolicy.js";\n`,
				],
				[
					`export class PaymentWebhookClient {
  constructor(private readonly opts: WebhookClientOptions) {}

  async deliver(event: PaymentEvent): Promise<void> {`,
					`const ATTEMPT_TTL_SECONDS = 24 * 60 * 60;

export class PaymentWebhookClient {
  constructor(
    private readonly opts: WebhookClientOptions,
    private readonly retryPolicy = new RetryPolicy(),
  ) {}

  async deliver(event: PaymentEvent): Promise<void> {
    for (;;) {
      const status = await this.attempt(event);
      if (status < 300) return;
      const attempt = await stateStore.incr(\`webhook:attempts:\${event.id}\`, ATTEMPT_TTL_SECONDS);
      if (!this.retryPolicy.shouldRetry(status, attempt)) {
        logger.error({ eventId: event.id, status, attempt }, "webhook delivery failed");
        return;
      }
      await new Promise((r) => setTimeout(r, this.retryPolicy.delayFor(attempt)));
    }
  }

  private async attempt(event: PaymentEvent): Promise<number> {`,
				],
				[
					`    if (!res.ok) {
      logger.error({ eventId: event.id, status: res.status }, "webhook delivery failed");
      return;
    }
    await stateStore.set(\`webhook:delivered:\${event.id}\`, Date.now());
  }`,
					`    if (res.ok) await stateStore.set(\`webhook:delivered:\${event.id}\`, Date.now());
    return res.status;
  }`,
				],
			]),
		],
	});
	s.step({
		calls: [
			s.bash(
				"npx vitest run test/payments",
				`
 RUN  v2.1.9 /home/dev/projects/webshop

 ✓ test/payments/retryPolicy.test.ts (5 tests) 4ms
 ✓ test/payments/webhookClient.test.ts (7 tests) 61ms

 Test Files  2 passed (2)
      Tests  12 passed (12)
   Start at  08:17:41
   Duration  1.12s (transform 212ms, setup 0ms, collect 390ms, tests 65ms, environment 0ms, prepare 98ms)
`,
				{ ms: 2400 },
			),
		],
	});
	const forkPoint = s.say(
		"Done.\n\n- `src/payments/retryPolicy.ts`: `RetryPolicy` retries 408/429/5xx up to `maxAttempts = 5`, delays 250ms → 500ms → 1s … capped at 30s.\n- `PaymentWebhookClient.deliver()` now loops over `attempt()` and increments `webhook:attempts:<eventId>` in the `stateStore` (TTL 24h), so a restart continues the count instead of starting over.\n- All 12 payment tests pass.",
	);
	// Bookmark set in /tree (Shift+L) after the first task. It sits after the fork point on purpose:
	// createBranchedSession() drops label entries from the copied path without re-parenting their
	// children, so a label *inside* the copied path leaves a dangling parentId in the fork (Pi 0.73.1).
	tick(12_000);
	s.sm.appendLabelChange(wrote.assistantId, "retry-policy-v1");
	s.user("Also log a warning when we give up after the last attempt, with the event id and the attempt count.");
	s.step({
		calls: [
			s.edit("src/payments/webhookClient.ts", [
				[
					`        logger.error({ eventId: event.id, status, attempt }, "webhook delivery failed");`,
					`        if (attempt >= this.retryPolicy.maxAttempts) {
          logger.warn({ eventId: event.id, attempts: attempt }, "webhook delivery abandoned");
        } else {
          logger.error({ eventId: event.id, status, attempt }, "webhook delivery failed");
        }`,
				],
			]),
		],
	});
	s.say(
		'Added: when `attempt >= maxAttempts` the client logs `logger.warn({ eventId, attempts }, "webhook delivery abandoned")`; non-retryable 4xx responses still log "webhook delivery failed".',
	);
	return { s, forkPoint };
}

function makeBranchedSession() {
	at("2026-10-09T13:02:40.000Z");
	const s = Session.create(WEBSHOP, webshopFiles);
	s.start("medium");
	s.user(
		"Orders sometimes get stuck in `pending` when the fulfilment worker crashes mid-job. The queue is BullMQ on Redis (src/queue/orderQueue.ts). What are our options?",
	);
	s.step({ calls: [s.read("src/queue/orderQueue.ts")] });
	const options = s.say(
		"Two realistic options:\n\n**(a) Stay on BullMQ and harden it.** A crashed worker's job stays locked until its lock expires; BullMQ's stalled-job checker then moves it back to `wait`. Right now `lockDuration`/`stalledInterval` are the defaults and a job that keeps failing just disappears into the `failed` set. We can tune the stalled detection, cap `maxStalledCount`, and move jobs that exhaust their attempts to a dead-letter queue that someone actually looks at.\n\n**(b) Move to a message broker with explicit acknowledgements.** Unacked messages are redelivered when the consumer's connection drops, so a crash mid-job can't lose anything — at the price of running and operating another piece of infrastructure.\n\nGiven you already run Redis, (a) is the smaller change.",
	);

	// --- abandoned branch #1 (plain /tree navigation, no summary) ---
	s.user("Let's explore (b) first: migrate the queue to RabbitMQ. Sketch how the consumer would look with amqplib and a quorum queue.");
	s.step({
		text: "Let me check the current amqplib release first.",
		calls: [s.bash("npm view amqplib version dist-tags.latest", "0.10.4\n", { ms: 900 })],
	});
	s.say(
		'Sketch with `amqplib` 0.10.4 and a quorum queue (replicated, survives a broker node loss):\n\n```ts\nimport amqp from "amqplib";\n\nconst conn = await amqp.connect(process.env.AMQP_URL!);\nconst ch = await conn.createChannel();\nawait ch.assertExchange("orders.dlx", "fanout", { durable: true });\nawait ch.assertQueue("orders.fulfilment", {\n  durable: true,\n  arguments: { "x-queue-type": "quorum", "x-dead-letter-exchange": "orders.dlx", "x-delivery-limit": 5 },\n});\nawait ch.prefetch(8);\nawait ch.consume("orders.fulfilment", async (msg) => {\n  if (!msg) return;\n  const { orderId, warehouse } = JSON.parse(msg.content.toString());\n  try {\n    await fulfilOrder(orderId, warehouse);\n    ch.ack(msg);\n  } catch {\n    ch.nack(msg, false, true); // requeue; x-delivery-limit dead-letters after 5\n  }\n});\n```\n\nA crash before `ch.ack()` means RabbitMQ redelivers the message to another consumer. The cost: a 3-node RabbitMQ cluster in production, a new Helm chart, and rewriting the producers in `src/orders/checkout.ts`.',
	);
	// The user goes back to the options message in /tree and continues from there.
	tick(95_000);
	s.sm.branch(options);

	// --- active branch ---
	s.user(
		"Too much ops for us. Go with option (a): add a dead-letter queue for jobs that exhaust their attempts, and tune the stalled job detection.",
	);
	s.step({
		text: "I'll tune the worker's lock/stall settings and add an `orders-dead-letter` queue that receives the job data plus the last error once all attempts are used up.",
		calls: [
			s.edit("src/queue/orderQueue.ts", [
				[
					`export const orderWorker = new Worker<FulfilmentJob>(`,
					`export const deadLetterQueue = new Queue<FulfilmentJob & { error: string; failedAt: number }>(
  "orders-dead-letter",
  { connection },
);

export const orderWorker = new Worker<FulfilmentJob>(`,
				],
				[
					`  { connection, concurrency: 8 },`,
					`  {
    connection,
    concurrency: 8,
    lockDuration: 60_000, // fulfilment can take ~40s with the warehouse API
    stalledInterval: 15_000,
    maxStalledCount: 2,
  },`,
				],
				[
					`orderWorker.on("failed", (job, err) => {
  logger.error({ orderId: job?.data.orderId, err }, "fulfilment job failed");
});`,
					`orderWorker.on("failed", async (job, err) => {
  logger.error({ orderId: job?.data.orderId, err }, "fulfilment job failed");
  if (job && job.attemptsMade >= (job.opts.attempts ?? 1)) {
    await deadLetterQueue.add("dead", { ...job.data, error: err.message, failedAt: Date.now() });
  }
});`,
				],
			]),
		],
	});
	const design = s.say(
		"Changes in `src/queue/orderQueue.ts`:\n\n- `lockDuration: 60_000`, `stalledInterval: 15_000`, `maxStalledCount: 2`: a job whose worker died is picked up again within ~15s of its lock expiring, and after two stalls it fails instead of looping forever.\n- New `deadLetterQueue` (`orders-dead-letter`): the `failed` handler copies the job data plus `error` and `failedAt` there once `attemptsMade` reaches `attempts` (5).\n\nThe DLQ can be browsed in Bull Board next to the main queue.",
	);
	tick(30_000);
	const labelId = s.sm.appendLabelChange(design, "dlq-design");

	// --- abandoned branch #2 (left with a branch summary, next day) ---
	at("2026-10-10T07:48:10.000Z");
	s.user(
		"Before we ship this: could we drop the DLQ and instead count poison pills on the job itself, e.g. a `poisonCount` in job.data, and skip orders after 3?",
	);
	s.say(
		"Possible: in the `failed` handler do `await job.updateData({ ...job.data, poisonCount: (job.data.poisonCount ?? 0) + 1 })`, and at the top of the processor `if ((job.data.poisonCount ?? 0) >= 3) return;` so the order is silently skipped. Downsides: the skipped orders only live in the `failed` set of the main queue, nobody is alerted, and the counter is gone as soon as the job is cleaned up.",
	);
	tick(70_000);
	s.sm.branchWithSummary(
		labelId,
		"The user explored a different conversation branch before returning here.\nSummary of that exploration:\n\n## Goal\nReplace the dead-letter queue with a poison-pill counter (`poisonCount` in job.data) and skip orders after 3 failures.\n\n## Key Decisions\n- **Rejected**: the counter lives on the job and is lost once BullMQ prunes it (`removeOnFail`), skipped orders raise no alert, and there is no place to inspect or replay the failed payloads. Keep the `orders-dead-letter` queue.",
		{ readFiles: [], modifiedFiles: [] },
		false,
	);
	s.user("OK, keep the DLQ. Write a test for the dead-letter path.");
	s.step({
		calls: [
			s.write(
				"test/queue/orderQueue.dlq.test.ts",
				`import { afterAll, describe, expect, it, vi } from "vitest";
import { deadLetterQueue, orderQueue, orderWorker } from "../../src/queue/orderQueue.js";
import * as fulfilment from "../../src/orders/fulfilment.js";

describe("order fulfilment dead-letter queue", () => {
  afterAll(async () => {
    await orderWorker.close();
    await Promise.all([orderQueue.obliterate({ force: true }), deadLetterQueue.obliterate({ force: true })]);
  });

  it("moves a job to orders-dead-letter after the last attempt", async () => {
    vi.spyOn(fulfilment, "fulfilOrder").mockRejectedValue(new Error("warehouse API 502"));
    await orderQueue.add("fulfil", { orderId: "ord_7Q2M", warehouse: "BER-1" }, { attempts: 2, backoff: 0 });
    await vi.waitFor(async () => expect(await deadLetterQueue.count()).toBe(1), { timeout: 5_000 });
    const [dead] = await deadLetterQueue.getJobs(["wait"]);
    expect(dead.data).toMatchObject({ orderId: "ord_7Q2M", error: "warehouse API 502" });
  });
});
`,
			),
		],
	});
	s.step({
		calls: [
			s.bash(
				"npx vitest run test/queue/orderQueue.dlq.test.ts",
				`
 RUN  v2.1.9 /home/dev/projects/webshop

 ✓ test/queue/orderQueue.dlq.test.ts (1 test) 1284ms
   ✓ order fulfilment dead-letter queue > moves a job to orders-dead-letter after the last attempt 1279ms

 Test Files  1 passed (1)
      Tests  1 passed (1)
   Start at  07:52:03
   Duration  2.03s (transform 141ms, setup 0ms, collect 502ms, tests 1.28s, environment 0ms, prepare 87ms)
`,
				{ ms: 3100 },
			),
		],
	});
	s.say(
		'The test passes: with `attempts: 2` and a mocked `fulfilOrder` that always throws, the job lands in `orders-dead-letter` with `error: "warehouse API 502"` after the second failure.',
	);
	s.sm.appendSessionInfo("Order queue: dead-letter handling");
	return s;
}

function makeForkSession(s1File, forkPoint) {
	at("2026-10-21T10:30:12.000Z");
	// The user resumes the retry-policy session and clones it at the summary message (/tree + clone).
	const sm = SessionManager.open(s1File);
	sm.createBranchedSession(forkPoint);
	const s = new Session(sm, { ...webshopFiles, "src/payments/retryPolicy.ts": RETRY_POLICY_TS });
	s.ctx = 9800;
	s.user(
		"After yesterday's PSP outage all our pods retried in lockstep and got rate-limited. Add decorrelated jitter to RetryPolicy so retries from many pods spread out.",
		[],
		{ pause: 4_000 },
	);
	s.step({
		text: "I'll switch `delayFor()` to decorrelated jitter: each delay is random between the base delay and 3× the previous delay, capped at `maxDelayMs`. The random source is injectable so tests stay deterministic.",
		calls: [
			s.edit("src/payments/retryPolicy.ts", [
				[
					`  private readonly maxDelayMs: number;

  constructor({ maxAttempts = 5, baseDelayMs = 250, maxDelayMs = 30_000 }: RetryPolicyOptions = {}) {`,
					`  private readonly maxDelayMs: number;
  private previousDelayMs: number;

  constructor(
    { maxAttempts = 5, baseDelayMs = 250, maxDelayMs = 30_000 }: RetryPolicyOptions = {},
    private readonly random: () => number = Math.random,
  ) {
    this.previousDelayMs = baseDelayMs;`,
				],
				[
					`  delayFor(attempt: number): number {
    return Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (attempt - 1));
  }`,
					`  /** Decorrelated jitter: sleep = min(cap, random_between(base, previous * 3)). */
  delayFor(_attempt: number): number {
    const upper = this.previousDelayMs * 3;
    const delay = Math.min(this.maxDelayMs, this.baseDelayMs + this.random() * (upper - this.baseDelayMs));
    this.previousDelayMs = delay;
    return Math.round(delay);
  }`,
				],
			]),
		],
	});
	s.step({
		calls: [
			s.bash(
				"npx vitest run test/payments/retryPolicy.test.ts",
				` RUN  v2.1.9 /home/dev/projects/webshop

 ❯ test/payments/retryPolicy.test.ts (5 tests | 1 failed) 6ms
   × RetryPolicy > delayFor doubles the delay per attempt 3ms
     → expected 412 to be 500 // Object.is equality

 Test Files  1 failed (1)
      Tests  1 failed | 4 passed (5)
`,
				{ exitCode: 1, ms: 1900 },
			),
		],
	});
	s.step({
		text: "That test asserted the old doubling behaviour. I'll replace it with bounds checks using a fixed random source.",
		calls: [
			s.bash(
				"sed -i 's/delayFor doubles the delay per attempt/delayFor stays within [base, 3x previous]/' test/payments/retryPolicy.test.ts && npx vitest run test/payments/retryPolicy.test.ts",
				` RUN  v2.1.9 /home/dev/projects/webshop

 ✓ test/payments/retryPolicy.test.ts (5 tests) 5ms

 Test Files  1 passed (1)
      Tests  5 passed (5)
`,
				{ ms: 2100 },
			),
		],
	});
	s.say(
		"`RetryPolicy.delayFor()` now uses decorrelated jitter (the AWS Architecture Blog formula): with base 250ms the first retry waits 250–750ms, later ones up to 3× the previous sleep, never above 30s. Pods that failed at the same moment now retry at different times. The constructor takes an optional `random` function for tests.",
	);
	s.sm.appendSessionInfo("Retry jitter (fork of retry policy)");
	return s;
}

// ---------------------------------------------------------------------------------------------
// Project: inventory-api
// ---------------------------------------------------------------------------------------------

const INVENTORY = "/home/dev/projects/inventory-api";

const inventoryFiles = {
	"src/db/connection.ts": `import sqlite3 from "sqlite3";
import { promisify } from "node:util";
import { config } from "../config.js";

export interface Db {
  run(sql: string, params?: unknown[]): Promise<void>;
  get<T>(sql: string, params?: unknown[]): Promise<T | undefined>;
  all<T>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export function openDb(file = config.sqliteFile): Db {
  const db = new sqlite3.Database(file);
  return {
    run: (sql, params = []) =>
      new Promise((resolve, reject) => db.run(sql, params, (err) => (err ? reject(err) : resolve()))),
    get: promisify(db.get.bind(db)) as Db["get"],
    all: promisify(db.all.bind(db)) as Db["all"],
    close: promisify(db.close.bind(db)),
  };
}
`,
	"src/db/reservations.ts": `import type { Db } from "./connection.js";
import { auditLog } from "../audit/auditLog.js";

export async function reserveStock(db: Db, sku: string, qty: number, orderId: string): Promise<boolean> {
  await db.run("BEGIN IMMEDIATE");
  try {
    const row = await db.get<{ available: number }>("SELECT available FROM stock WHERE sku = ?", [sku]);
    if (!row || row.available < qty) {
      await db.run("ROLLBACK");
      return false;
    }
    await db.run("UPDATE stock SET available = available - ? WHERE sku = ?", [qty, sku]);
    await db.run("INSERT INTO reservations (order_id, sku, qty) VALUES (?, ?, ?)", [orderId, sku, qty]);
    await db.run("COMMIT");
  } catch (err) {
    await db.run("ROLLBACK");
    throw err;
  }
  auditLog.record({ type: "reserve", sku, qty, orderId });
  auditLog.flush();
  return true;
}

export async function releaseStock(db: Db, orderId: string): Promise<void> {
  const rows = await db.all<{ sku: string; qty: number }>("SELECT sku, qty FROM reservations WHERE order_id = ?", [orderId]);
  for (const r of rows) {
    await db.run("UPDATE stock SET available = available + ? WHERE sku = ?", [r.qty, r.sku]);
  }
  await db.run("DELETE FROM reservations WHERE order_id = ?", [orderId]);
  auditLog.record({ type: "release", orderId });
  auditLog.flush();
}
`,
	"jobs/importStock.ts": `import { parse } from "csv-parse/sync";
import { readFile } from "node:fs/promises";
import { pg } from "../src/pg/pool.js";

interface StockRow {
  sku: string;
  qty: number;
  warehouse: string;
}

export async function importStock(csvPath: string): Promise<number> {
  const rows: StockRow[] = parse(await readFile(csvPath), { columns: true, cast: true });
  const client = await pg.connect();
  try {
    await client.query("BEGIN");
    for (const row of rows) {
      await client.query("UPDATE stock SET qty = $1, warehouse = $2 WHERE sku = $3", [row.qty, row.warehouse, row.sku]);
    }
    await client.query("COMMIT");
    return rows.length;
  } catch (err) {
    await client.query("ROLLBACK");
    throw err;
  } finally {
    client.release();
  }
}
`,
	"package.json": `{
  "name": "inventory-api",
  "version": "0.4.0",
  "type": "module",
  "scripts": {
    "dev": "tsx watch src/server.ts",
    "test": "vitest run",
    "test:import": "vitest run test/jobs",
    "lint": "eslint ."
  }
}
`,
	"src/server.ts": `import Fastify from "fastify";
import { pool } from "./pg/pool.js";
import { healthRoutes } from "./routes/health.js";
import { stockRoutes } from "./routes/stock.js";

const app = Fastify({ logger: true });
await app.register(healthRoutes);
await app.register(stockRoutes, { prefix: "/stock" });

process.on("SIGTERM", async () => {
  await pool.end();
  await app.close();
});

await app.listen({ port: Number(process.env.PORT ?? 8080), host: "0.0.0.0" });
`,
	"src/routes/health.ts": `import type { FastifyInstance } from "fastify";
import { pool } from "../pg/pool.js";

export async function healthRoutes(app: FastifyInstance) {
  app.get("/healthz", async () => {
    const { rows } = await pool.query("SELECT 1 AS ok");
    return { status: rows[0].ok === 1 ? "ok" : "degraded" };
  });
}
`,
};

const SQLITE_BUSY_OUTPUT = `
> inventory-api@0.4.0 test
> vitest run

 RUN  v2.1.9 /home/dev/projects/inventory-api

 ✓ test/stock.routes.test.ts (9 tests) 184ms
 ✓ test/audit/auditLog.test.ts (4 tests) 22ms
 ❯ test/db/reservations.test.ts (6 tests | 2 failed) 5034ms
   ✓ reserveStock > reserves when enough stock is available 31ms
   ✓ reserveStock > refuses when stock is short 12ms
   × reserveStock > reserves stock for concurrent orders 5002ms
     → SQLITE_BUSY: database is locked
   × releaseStock > returns reserved quantities 9ms
     → SQLITE_BUSY: database is locked
   ✓ releaseStock > is a no-op for unknown orders 4ms
   ✓ reservations > survive a reconnect 18ms

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 2 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  test/db/reservations.test.ts > reserveStock > reserves stock for concurrent orders
Error: SQLITE_BUSY: database is locked
 ❯ Statement.run node_modules/sqlite3/lib/sqlite3.js:20:37
 ❯ src/db/connection.ts:17:52
 ❯ reserveStock src/db/reservations.ts:5:12
 ❯ test/db/reservations.test.ts:41:18

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/2]⎯

 FAIL  test/db/reservations.test.ts > releaseStock > returns reserved quantities
Error: SQLITE_BUSY: database is locked
 ❯ Statement.run node_modules/sqlite3/lib/sqlite3.js:20:37
 ❯ src/db/connection.ts:17:52
 ❯ releaseStock src/db/reservations.ts:28:14

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[2/2]⎯

 Test Files  1 failed | 2 passed (3)
      Tests  2 failed | 17 passed (19)
   Start at  15:41:07
   Duration  5.61s (transform 301ms, setup 0ms, collect 812ms, tests 5.24s, environment 0ms, prepare 144ms)

npm ERR! Lifecycle script \`test\` failed with error:
npm ERR! Error: command failed
npm ERR!   in workspace: inventory-api@0.4.0
`;

function makeBashSession() {
	at("2026-10-14T15:40:31.000Z");
	const s = Session.create(INVENTORY, inventoryFiles);
	s.start("low");
	// An extension stores its state at session start (not part of the conversation).
	tick(60);
	s.sm.appendCustomEntry("todo-state", {
		ticket: "INV-2291",
		items: [
			{ text: "reserve stock atomically under concurrent checkouts", done: false },
			{ text: "make the reservations suite green on CI", done: false },
		],
	});
	s.bashExecution("npm test", SQLITE_BUSY_OUTPUT, { exitCode: 1, ms: 6400, pause: 25_000 });
	s.user("The reservations tests fail with SQLITE_BUSY on CI (output above), locally they pass most of the time. Find out why and fix it.");
	s.step({
		text: "Both failures are lock errors on the first write of a transaction. Let me look at how connections are opened.",
		calls: [s.read("src/db/connection.ts"), s.read("src/db/reservations.ts")],
	});
	s.step({
		text: "Cause: the test opens two `Db` handles on the same file (the concurrent-orders test uses one per simulated checkout). With the default rollback journal and **no busy timeout**, the second `BEGIN IMMEDIATE` fails instantly with `SQLITE_BUSY` instead of waiting for the first transaction to commit; on the slower CI disk the window is much larger. Fix: WAL journal mode (readers no longer block the writer) and a 5s busy timeout so writers queue up.",
		calls: [
			s.edit("src/db/connection.ts", [
				[
					`  const db = new sqlite3.Database(file);
  return {`,
					`  const db = new sqlite3.Database(file);
  // Wait up to 5s for a competing writer instead of failing with SQLITE_BUSY immediately.
  db.configure("busyTimeout", 5_000);
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
  return {`,
				],
			]),
		],
	});
	s.step({
		calls: [
			s.bash(
				"npm test -- test/db/reservations.test.ts",
				`
> inventory-api@0.4.0 test
> vitest run test/db/reservations.test.ts

 RUN  v2.1.9 /home/dev/projects/inventory-api

 ✓ test/db/reservations.test.ts (6 tests) 412ms

 Test Files  1 passed (1)
      Tests  6 passed (6)
   Start at  15:44:52
   Duration  1.02s
`,
				{ ms: 2200 },
			),
		],
	});
	s.say(
		"Fixed in `src/db/connection.ts`: `busyTimeout` 5000ms plus `journal_mode = WAL`. The concurrent-orders test now waits for the competing transaction instead of erroring, and the suite passes (6/6). Note that WAL creates `-wal`/`-shm` files next to the database; they are already covered by `*.sqlite*` in .gitignore.",
	);
	// The user switches model and thinking level (/model, shift+tab).
	s.switchModel(CODEX, "high");
	// An extension (lint-on-idle) injects its report into the conversation.
	tick(5_000);
	s.sm.appendCustomMessageEntry(
		"lint-report",
		"eslint found 2 problems in src/db/reservations.ts:\n  20:3  warning  Promises must be awaited, end with a call to .catch, or be explicitly marked as ignored with the `void` operator  @typescript-eslint/no-floating-promises\n  30:3  warning  Promises must be awaited, end with a call to .catch, or be explicitly marked as ignored with the `void` operator  @typescript-eslint/no-floating-promises",
		true,
		{ errorCount: 0, warningCount: 2, files: ["src/db/reservations.ts"] },
	);
	s.user("Fix those two lint warnings as well.");
	s.step({
		text: "Both are un-awaited `auditLog.flush()` calls; if the flush rejects, the error is unhandled and can crash the process.",
		calls: [
			s.edit("src/db/reservations.ts", [
				[
					`  auditLog.record({ type: "reserve", sku, qty, orderId });\n  auditLog.flush();`,
					`  auditLog.record({ type: "reserve", sku, qty, orderId });\n  await auditLog.flush();`,
				],
				[
					`  auditLog.record({ type: "release", orderId });\n  auditLog.flush();`,
					`  auditLog.record({ type: "release", orderId });\n  await auditLog.flush();`,
				],
			]),
		],
	});
	s.step({
		calls: [
			s.bash(
				"npx eslint src/db/reservations.ts && npm test -- test/db",
				"\n> inventory-api@0.4.0 test\n> vitest run test/db\n\n ✓ test/db/reservations.test.ts (6 tests) 398ms\n\n Test Files  1 passed (1)\n      Tests  6 passed (6)\n",
				{ ms: 5200 },
			),
		],
	});
	s.say("Both `auditLog.flush()` calls are awaited now; eslint is clean and the db tests still pass.");
	s.bashExecution(
		"npm run dev",
		'\n> inventory-api@0.4.0 dev\n> tsx watch src/server.ts\n\n{"level":30,"time":1791992593120,"pid":48211,"hostname":"devbox","msg":"Server listening at http://0.0.0.0:8080"}\n',
		{ exitCode: undefined, cancelled: true, ms: 41_000 },
	);
	s.bashExecution("git status --short", " M src/db/connection.ts\n M src/db/reservations.ts\n", {
		exitCode: 0,
		excludeFromContext: true,
		ms: 40,
	});
	return s;
}

function makeChineseSession() {
	at("2026-10-27T01:15:22.000Z");
	const s = Session.create(INVENTORY, inventoryFiles);
	s.start("medium");
	s.user(
		"每天凌晨的批量导入任务经常失败，日志里是数据库锁错误：`ERROR: deadlock detected`。两个仓库的导入是并行跑的。帮我看看 jobs/importStock.ts 哪里有问题。",
	);
	s.sm.appendSessionInfo("批量导入死锁排查");
	s.step({ text: "我先看一下导入脚本。", calls: [s.read("jobs/importStock.ts")] });
	s.say(
		"找到原因了：\n\n1. **加锁顺序不一致**：两个导入进程在同一个事务里按 CSV 的原始顺序逐行 `UPDATE stock`。进程 A 先锁住 sku-1 再等 sku-2，进程 B 先锁住 sku-2 再等 sku-1，于是互相等待对方持有的行锁，PostgreSQL 检测到死锁后回滚其中一个事务（错误码 40P01）。\n2. **没有索引**：`stock.sku` 上没有索引，每条 UPDATE 都要全表扫描，事务持有锁的时间被拉得很长，死锁的概率也随之变大。\n\n建议：\n- 更新前按 sku 排序，保证所有进程以相同顺序加锁；\n- 给 `sku` 列加唯一索引；\n- 捕获死锁错误后重试整个事务。",
	);
	s.user("加索引会不会锁表？生产环境的 stock 表有两千万行，白天不能停写入。");
	s.step({
		text: "普通的 `CREATE INDEX` 会对表加 SHARE 锁，建索引期间所有写入都会被阻塞。用 `CREATE INDEX CONCURRENTLY` 就不会阻塞写入，代价是耗时更长，而且不能放在事务里执行。如果中途失败，会留下一个 INVALID 状态的索引，需要先删掉再重建。我把迁移写成单独的文件：",
		calls: [
			s.write(
				"migrations/20261027_stock_sku_index.sql",
				"-- 不能放在事务里执行（CONCURRENTLY）\n-- 失败后先执行: DROP INDEX CONCURRENTLY IF EXISTS idx_stock_sku;\nCREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS idx_stock_sku ON stock (sku);\n",
			),
		],
	});
	s.user("好。那锁 等待 超时应该设多少？现在好像是一直等。还有 锁 是在 UPDATE 的时候才拿到的吧？");
	s.step({
		text: "对，行锁是在执行 UPDATE 时才获取，一直持有到事务提交或回滚。现在 `lock_timeout` 是默认的 0（无限等待）。导入任务建议在事务里 `SET LOCAL lock_timeout = '5s'`：拿不到锁就报错（错误码 55P03），和死锁（40P01）一样进入重试。我来改导入脚本：排序、设置超时、最多重试 3 次。",
		calls: [
			s.edit("jobs/importStock.ts", [
				[
					`export async function importStock(csvPath: string): Promise<number> {
  const rows: StockRow[] = parse(await readFile(csvPath), { columns: true, cast: true });
  const client = await pg.connect();
  try {
    await client.query("BEGIN");
    for (const row of rows) {`,
					`const RETRYABLE = new Set(["40P01", "55P03"]); // 死锁 / 锁等待超时

export async function importStock(csvPath: string, attempt = 1): Promise<number> {
  const rows: StockRow[] = parse(await readFile(csvPath), { columns: true, cast: true });
  // 所有导入进程按相同顺序加锁，避免死锁
  rows.sort((a, b) => a.sku.localeCompare(b.sku));
  const client = await pg.connect();
  try {
    await client.query("BEGIN");
    await client.query("SET LOCAL lock_timeout = '5s'");
    for (const row of rows) {`,
				],
				[
					`  } catch (err) {
    await client.query("ROLLBACK");
    throw err;
  } finally {`,
					`  } catch (err) {
    await client.query("ROLLBACK");
    if (attempt < 3 && RETRYABLE.has((err as { code?: string }).code ?? "")) {
      client.release();
      await new Promise((r) => setTimeout(r, 500 * attempt));
      return importStock(csvPath, attempt + 1);
    }
    throw err;
  } finally {`,
				],
			]),
		],
	});
	s.step({
		calls: [
			s.bash(
				"npm run test:import",
				"\n> inventory-api@0.4.0 test:import\n> vitest run test/jobs\n\n ✓ test/jobs/importStock.test.ts (4 tests) 2310ms\n   ✓ importStock > two parallel imports of overlapping files both succeed 1876ms\n\n Test Files  1 passed (1)\n      Tests  4 passed (4)\n",
				{ ms: 3900 },
			),
		],
	});
	s.say(
		"改好了，测试全部通过（包括两个重叠文件并行导入的用例）。总结：\n\n- 导入前按 sku 排序，所有进程以相同顺序获取行锁，消除死锁；\n- 事务内 `SET LOCAL lock_timeout = '5s'`，不再无限等待锁；\n- 遇到 40P01（死锁）或 55P03（锁等待超时）错误时最多重试 3 次；\n- 新的迁移 `migrations/20261027_stock_sku_index.sql` 用 `CREATE UNIQUE INDEX CONCURRENTLY` 创建 `idx_stock_sku` 索引，不会阻塞写入。\n\n注意：跑这个迁移时不要用会自动包事务的迁移工具模式，否则会报错。",
	);
	return s;
}

function makeCompactionSession() {
	at("2026-11-04T09:05:47.000Z");
	const s = Session.create(INVENTORY, inventoryFiles);
	s.start("medium");
	s.user(
		"`npm run dev` keeps restarting in a loop since I upgraded tsx to 4.19. It restarts every few seconds even when I don't touch anything.",
	);
	s.step({
		calls: [
			s.bash(
				"timeout 20 npm run dev 2>&1 | grep -E 'Restarting|change' | head -n 12",
				"[tsx] change in ./coverage/lcov-report/index.html Restarting...\n[tsx] change in ./coverage/lcov-report/src/db/index.html Restarting...\n[tsx] change in ./coverage/coverage-final.json Restarting...\n[tsx] change in ./coverage/lcov-report/index.html Restarting...\n[tsx] change in ./coverage/lcov.info Restarting...\n[tsx] change in ./coverage/lcov-report/src/routes/index.html Restarting...\n",
				{ ms: 20_100 },
			),
		],
	});
	s.say(
		"The watcher reacts to files under `coverage/`. You have `vitest --coverage --watch` running in another terminal, and it rewrites the coverage report on every test run, which triggers a tsx restart, which re-runs the tests... tsx 4.19 watches every imported file's directory tree, not just the import graph. Excluding `coverage/` breaks the loop.",
	);
	s.user(
		"Also the debugger can't attach: port 9229 is already used by VS Code's js-debug auto-attach. Move the inspector to some other fixed port so my launch config can use it.",
	);
	s.step({
		calls: [
			s.edit("package.json", [
				[
					`    "dev": "tsx watch src/server.ts",`,
					`    "dev": "tsx watch --exclude 'coverage/**' --inspect=127.0.0.1:47813 src/server.ts",`,
				],
			]),
		],
	});
	s.say(
		'Updated the dev script: `tsx watch --exclude \'coverage/**\' --inspect=127.0.0.1:47813 src/server.ts`. The inspector now listens on 127.0.0.1:47813; set `"port": 47813` in the "Attach to inventory-api" configuration in .vscode/launch.json.',
	);
	const firstKept = s.user("Restarts are fine now. But after each restart `GET /healthz` returns 500 for a few seconds.");
	s.step({ calls: [s.read("src/routes/health.ts"), s.read("src/server.ts")] });
	// Auto-compaction kicks in before the next model call.
	tick(2_500);
	s.sm.appendCompaction(
		"## Goal\nStop the inventory-api dev server (`npm run dev`, tsx 4.19) from restarting in a loop, make the debugger attachable, then fix `GET /healthz` returning 500 right after a restart.\n\n## Constraints & Preferences\n- Debugger must use a fixed port that the VS Code launch config can reference.\n\n## Progress\n### Done\n- [x] Found the restart storm: `vitest --coverage --watch` rewrites `coverage/`, which tsx watches\n- [x] Dev script now excludes `coverage/**` from the watcher and moves the Node inspector off the default port\n\n### In Progress\n- [ ] `/healthz` returns 500 for a few seconds after each restart\n\n## Key Decisions\n- **Exclude coverage output from tsx watch**: simpler than moving the coverage directory.\n\n## Next Steps\n1. Find out why the health check fails after restarts (see src/routes/health.ts, src/server.ts)\n\n## Critical Context\n- (none)\n\n<read-files>\nsrc/routes/health.ts\nsrc/server.ts\n</read-files>\n\n<modified-files>\npackage.json\n</modified-files>",
		firstKept,
		61_873,
		{ readFiles: ["src/routes/health.ts", "src/server.ts"], modifiedFiles: ["package.json"] },
		false,
	);
	s.ctx = 7400;
	s.step({
		text: "The SIGTERM handler calls `pool.end()` **before** `app.close()`. When tsx restarts, the old process stops accepting connections only after the pool is already closed, so requests that still reach it fail with `Cannot use a pool after calling end on the pool`. Close the HTTP server first, then the pool.",
		calls: [
			s.edit("src/server.ts", [
				[
					`process.on("SIGTERM", async () => {
  await pool.end();
  await app.close();
});`,
					`process.on("SIGTERM", async () => {
  await app.close(); // stop accepting requests first
  await pool.end();
  process.exit(0);
});`,
				],
			]),
		],
	});
	s.user("works now, thanks");
	s.say("Great. The shutdown order is now: close the Fastify server (drains in-flight requests), end the pg pool, exit.");
	s.sm.appendSessionInfo("Flaky dev server restarts");
	return s;
}

// ---------------------------------------------------------------------------------------------
// Project: devnotes
// ---------------------------------------------------------------------------------------------

const DEVNOTES = "/home/dev/projects/devnotes";

const FTS_INDEX_TS = `// Full-text index for devnotes. Schema tag: NOTES_FTS_SCHEMA_V4 (bump when the DDL below changes).
// The driver behind \`Db\` is still undecided (see docs/decisions/), so keep this file driver-agnostic.
import type { Db } from "./db.js";
import { normalizeTitle, stripMarkdown } from "../text/markdown.js";

export const SCHEMA_VERSION = 4;

export interface NoteRow {
  id: string;
  title: string;
  body: string;
  tags: string[];
  updatedAt: number;
}

export interface SearchHit {
  id: string;
  title: string;
  snippet: string;
  score: number;
}

export interface SearchOptions {
  limit?: number;
  tag?: string;
  since?: number;
  until?: number;
}

const DDL = [
  \`CREATE TABLE IF NOT EXISTS notes (
     id TEXT PRIMARY KEY,
     title TEXT NOT NULL,
     body TEXT NOT NULL,
     tags TEXT NOT NULL DEFAULT '',
     updated_at INTEGER NOT NULL
   )\`,
  \`CREATE VIRTUAL TABLE IF NOT EXISTS notes_fts USING fts5(
     title, body, tags,
     content='notes', content_rowid='rowid',
     tokenize='unicode61 remove_diacritics 2'
   )\`,
  \`CREATE TRIGGER IF NOT EXISTS notes_ai AFTER INSERT ON notes BEGIN
     INSERT INTO notes_fts(rowid, title, body, tags) VALUES (new.rowid, new.title, new.body, new.tags);
   END\`,
  \`CREATE TRIGGER IF NOT EXISTS notes_ad AFTER DELETE ON notes BEGIN
     INSERT INTO notes_fts(notes_fts, rowid, title, body, tags) VALUES ('delete', old.rowid, old.title, old.body, old.tags);
   END\`,
  \`CREATE TRIGGER IF NOT EXISTS notes_au AFTER UPDATE ON notes BEGIN
     INSERT INTO notes_fts(notes_fts, rowid, title, body, tags) VALUES ('delete', old.rowid, old.title, old.body, old.tags);
     INSERT INTO notes_fts(rowid, title, body, tags) VALUES (new.rowid, new.title, new.body, new.tags);
   END\`,
  \`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)\`,
];

export async function createSchema(db: Db): Promise<void> {
  for (const stmt of DDL) await db.exec(stmt);
  await db.run("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)", [String(SCHEMA_VERSION)]);
}

export async function upsertNote(db: Db, note: NoteRow): Promise<void> {
  await db.run(
    \`INSERT INTO notes (id, title, body, tags, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET title = excluded.title, body = excluded.body,
       tags = excluded.tags, updated_at = excluded.updated_at\`,
    [note.id, normalizeTitle(note.title), stripMarkdown(note.body), note.tags.join(" "), note.updatedAt],
  );
}

export async function deleteNote(db: Db, id: string): Promise<void> {
  await db.run("DELETE FROM notes WHERE id = ?", [id]);
}

/** Turn user input into an FTS5 MATCH expression: quote every token, prefix-match the last one. */
export function toMatchQuery(input: string): string {
  const tokens = input
    .split(/\\s+/)
    .map((t) => t.replace(/"/g, '""'))
    .filter(Boolean);
  if (tokens.length === 0) return "";
  const last = tokens.pop()!;
  return [...tokens.map((t) => \`"\${t}"\`), \`"\${last}"*\`].join(" ");
}

export async function search(db: Db, input: string, opts: SearchOptions = {}): Promise<SearchHit[]> {
  const match = toMatchQuery(input);
  if (!match) return [];
  const where = ["notes_fts MATCH ?"];
  const params: unknown[] = [match];
  if (opts.tag) {
    where.push("n.tags LIKE ?");
    params.push(\`%\${opts.tag}%\`);
  }
  if (opts.since !== undefined) {
    where.push("n.updated_at >= ?");
    params.push(opts.since);
  }
  if (opts.until !== undefined) {
    where.push("n.updated_at < ?");
    params.push(opts.until);
  }
  params.push(opts.limit ?? 20);
  // bm25 weights: title matches count 4x, body 1x, tags 2x
  return db.all<SearchHit>(
    \`SELECT n.id, n.title,
            snippet(notes_fts, 2, '<mark>', '</mark>', ' … ', 12) AS snippet,
            bm25(notes_fts, 4.0, 1.0, 2.0) AS score
       FROM notes_fts JOIN notes n ON n.rowid = notes_fts.rowid
      WHERE \${where.join(" AND ")}
      ORDER BY score
      LIMIT ?\`,
    params,
  );
}

/**
 * Substring search for CJK and code identifiers: a shadow table with the trigram tokenizer.
 * Rebuilt from scratch because FTS5 cannot change the tokenizer of an existing table.
 */
export async function rebuildTrigramShadowTable(db: Db): Promise<void> {
  await db.exec("DROP TABLE IF EXISTS notes_tri");
  await db.exec(
    "CREATE VIRTUAL TABLE notes_tri USING fts5(title, body, content='notes', content_rowid='rowid', tokenize='trigram')",
  );
  await db.exec("INSERT INTO notes_tri(notes_tri) VALUES ('rebuild')");
}

export async function searchSubstring(db: Db, needle: string, limit = 20): Promise<SearchHit[]> {
  if ([...needle].length < 3) {
    // trigram cannot match fewer than 3 characters: fall back to LIKE
    return db.all<SearchHit>(
      "SELECT id, title, substr(body, 1, 120) AS snippet, 0 AS score FROM notes WHERE body LIKE ? OR title LIKE ? LIMIT ?",
      [\`%\${needle}%\`, \`%\${needle}%\`, limit],
    );
  }
  return db.all<SearchHit>(
    \`SELECT n.id, n.title, snippet(notes_tri, 1, '<mark>', '</mark>', ' … ', 12) AS snippet, 0 AS score
       FROM notes_tri JOIN notes n ON n.rowid = notes_tri.rowid
      WHERE notes_tri MATCH ? LIMIT ?\`,
    [\`"\${needle.replace(/"/g, '""')}"\`, limit],
  );
}

export async function countNotes(db: Db): Promise<number> {
  const row = await db.get<{ n: number }>("SELECT count(*) AS n FROM notes");
  return row?.n ?? 0;
}

export async function optimize(db: Db): Promise<void> {
  await db.exec("INSERT INTO notes_fts(notes_fts) VALUES ('optimize')");
  await db.exec("INSERT INTO notes_fts(notes_fts) VALUES ('integrity-check')");
}

export async function vacuum(db: Db): Promise<void> {
  await optimize(db);
  await db.exec("VACUUM");
}

export async function schemaVersion(db: Db): Promise<number> {
  const row = await db.get<{ value: string }>("SELECT value FROM meta WHERE key = 'schema_version'");
  return row ? Number(row.value) : 0;
}

export async function migrate(db: Db): Promise<void> {
  const current = await schemaVersion(db);
  if (current === SCHEMA_VERSION) return;
  if (current < 4) {
    await db.exec("DROP TABLE IF EXISTS notes_fts");
    await createSchema(db);
    await db.exec("INSERT INTO notes_fts(notes_fts) VALUES ('rebuild')");
  }
  await legacySnippetsV0Cleanup(db);
}

/** Pre-0.3 builds cached rendered snippets in a plain table; nothing reads it any more. */
async function legacySnippetsV0Cleanup(db: Db): Promise<void> {
  await db.exec("DROP TABLE IF EXISTS snippets_v0");
}
`;

// 2x2 PNG (red/white checker), 75 bytes.
const PNG_2X2 = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGP4z8DAwMDAwMDAAAANAQH/p9P1NAAAAABJRU5ErkJggg==";

const devnotesFiles = {
	"src/index/ftsIndex.ts": FTS_INDEX_TS,
	"src/cli/args.ts": `import { parseArgs } from "node:util";

export interface CliArgs {
  command: "search" | "index" | "stats";
  query: string;
  limit: number;
  tag?: string;
}

export function parseCliArgs(argv: string[]): CliArgs {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      limit: { type: "string", short: "n", default: "20" },
      tag: { type: "string", short: "t" },
    },
  });
  const [command = "search", ...rest] = positionals;
  if (command !== "search" && command !== "index" && command !== "stats") {
    throw new Error(\`unknown command: \${command}\`);
  }
  return { command, query: rest.join(" "), limit: Number(values.limit), tag: values.tag };
}
`,
};

function makeDecisionSession() {
	at("2026-11-12T16:20:03.000Z");
	const s = Session.create(DEVNOTES, devnotesFiles);
	s.start("high");
	s.user(
		"The search results page renders empty snippets, see the screenshot. After that we need to pick the storage engine for the index before going further.",
		[{ type: "image", data: PNG_2X2, mimeType: "image/png" }],
	);
	s.step({
		think:
			"Empty snippets but titles are there, so MATCH works and the join is fine. Probably snippet() is pointed at the wrong column. Let me call this the snorkelwaffle bug until I have confirmed it. Need to read ftsIndex.ts.",
		text: "Titles show up but snippets are empty, so the query matches and only the snippet extraction is off. Let me read the index module.",
		calls: [s.read("src/index/ftsIndex.ts")],
	});
	s.step({
		text: "Found it: `notes_fts` has the columns `(title, body, tags)`, so column index 2 is `tags`, but `snippet(notes_fts, 2, …)` is asked for the snippet. Most notes have no tags, hence the empty snippets. The body is column 1.",
		calls: [
			s.edit("src/index/ftsIndex.ts", [
				[
					`            snippet(notes_fts, 2, '<mark>', '</mark>', ' … ', 12) AS snippet,`,
					`            snippet(notes_fts, 1, '<mark>', '</mark>', ' … ', 12) AS snippet,`,
				],
			]),
		],
	});
	s.user("Good. Now the storage engine: better-sqlite3 or sql.js? We want the CLI to also run under Bun and in the browser build.");
	s.say(
		"Trade-offs:\n\n| | better-sqlite3 | sql.js (SQLite compiled to WebAssembly) |\n|---|---|---|\n| speed | native, fastest; synchronous API | ~1.5–3× slower on writes, fine for reads |\n| install | prebuilt binaries per platform/ABI, node-gyp fallback | pure JS + .wasm, nothing to compile |\n| Bun | relies on the Node native-addon ABI | works anywhere WebAssembly works |\n| browser | no | yes |\n| persistence | writes the file directly | in-memory DB; you `export()` the bytes and write them yourself |\n| FTS5 | compiled in | not in the default build; need an FTS5-enabled build |\n\nIf the browser build is a real requirement, sql.js is the only one that covers all three targets.",
	);
	s.user("Native modules broke for us under Bun last time (the ABI mismatch mess in the other project). Let's not go there again.");
	s.step({
		text: "Agreed. Decision: we decided to use sql.js with FTS5 instead of better-sqlite3 because native modules break under Bun. I'm recording it as an ADR.",
		calls: [
			s.write(
				"docs/decisions/0003-storage-engine.md",
				"# 3. Storage engine for the search index\n\nDate: 2026-11-12\n\n## Status\n\nAccepted\n\n## Context\n\ndevnotes must run under Node, Bun and in the browser build. The index needs SQLite FTS5 (bm25, snippet, trigram tokenizer).\n\n## Decision\n\nUse sql.js (SQLite compiled to WebAssembly) with an FTS5-enabled build, not better-sqlite3.\n\n## Consequences\n\n- No native modules: nothing to rebuild per platform or per Node/Bun ABI.\n- The same code runs in the browser.\n- The database lives in memory; `Db.flush()` writes `db.export()` to disk atomically (write to a temp file next to the index, then rename).\n- Writes are slower than better-sqlite3; acceptable for a personal notes index.\n",
			),
		],
	});
	s.say(
		"Recorded in `docs/decisions/0003-storage-engine.md`. Next step would be a `SqlJsDb` implementation of the `Db` interface that loads the index file on open and flushes it atomically on close.",
	);
	s.sm.appendSessionInfo("Storage engine decision");
	return s;
}

function makeCliDatesSession() {
	at("2026-11-20T11:00:09.000Z");
	const s = Session.create(DEVNOTES, { ...devnotesFiles });
	s.start("medium");
	s.user("Add --since and --until flags to the search command. Accept ISO dates (2026-11-01) and relative ages like 7d or 12h.");
	s.step({
		calls: [
			{ name: "ls", args: { path: "src/cli" }, out: "args.ts\nformat.ts\nmain.ts\n", ms: 6 },
			{
				name: "grep",
				args: { pattern: "since|until", path: "src" },
				out: "src/index/ftsIndex.ts:27:   since?: number;\nsrc/index/ftsIndex.ts:28:   until?: number;\nsrc/index/ftsIndex.ts:111:   if (opts.since !== undefined) {\nsrc/index/ftsIndex.ts:115:   if (opts.until !== undefined) {",
				ms: 35,
			},
		],
	});
	s.step({
		text: "`search()` already supports `since`/`until` (epoch ms, `until` exclusive); only the CLI parsing is missing.",
		calls: [s.read("src/cli/args.ts")],
	});
	s.step({
		calls: [
			s.edit("src/cli/args.ts", [
				[
					`  tag?: string;\n}`,
					`  tag?: string;\n  since?: number;\n  until?: number;\n}\n\nconst UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;\n\n/** "2026-11-01", "2026-11-01T08:00", "7d", "12h" -> epoch ms */\nexport function parseWhen(value: string, now = Date.now()): number {\n  const rel = /^(\\d+)([mhdw])$/.exec(value);\n  if (rel) return now - Number(rel[1]) * UNIT_MS[rel[2] as keyof typeof UNIT_MS];\n  const t = Date.parse(value);\n  if (Number.isNaN(t)) throw new Error(\`invalid date: \${value}\`);\n  return t;\n}`,
				],
				[
					`      tag: { type: "string", short: "t" },`,
					`      tag: { type: "string", short: "t" },\n      since: { type: "string" },\n      until: { type: "string" },`,
				],
				[
					`  return { command, query: rest.join(" "), limit: Number(values.limit), tag: values.tag };`,
					`  return {\n    command,\n    query: rest.join(" "),\n    limit: Number(values.limit),\n    tag: values.tag,\n    since: values.since ? parseWhen(values.since) : undefined,\n    until: values.until ? parseWhen(values.until) : undefined,\n  };`,
				],
			]),
		],
	});
	s.step({
		calls: [
			{ name: "find", args: { pattern: "**/*args*.test.ts" }, out: "test/cli/args.test.ts", ms: 12 },
			s.bash(
				"npx vitest run test/cli",
				" ✓ test/cli/args.test.ts (11 tests) 7ms\n\n Test Files  1 passed (1)\n      Tests  11 passed (11)\n",
				{ ms: 1300 },
			),
		],
	});
	s.say(
		"Added `--since` / `--until` to `parseCliArgs` via a new `parseWhen()` helper: ISO dates go through `Date.parse` (a bare date means midnight UTC), relative ages `30m`, `12h`, `7d`, `2w` count back from now. They map onto the existing `since`/`until` options of `search()`, which the sql.js index applies to `updated_at`.",
	);
	s.sm.appendSessionInfo("CLI --since/--until flags");
	return s;
}

// ---------------------------------------------------------------------------------------------
// Project: legacy-cli (hand-written v1 and v2 files; SessionManager only writes v3)
// ---------------------------------------------------------------------------------------------

const LEGACY = "/home/dev/projects/legacy-cli";
const zeroUsage = (input, output) => ({
	input,
	output,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: input + output,
	cost: { input: (input * 3) / 1e6, output: (output * 15) / 1e6, cacheRead: 0, cacheWrite: 0, total: (input * 3 + output * 15) / 1e6 },
});
const oldAssistant = (ms, content, input, output, stopReason) => ({
	role: "assistant",
	content,
	api: "anthropic-messages",
	provider: "anthropic",
	model: "claude-sonnet-4-20250514",
	usage: zeroUsage(input, output),
	stopReason: stopReason ?? (content.some((b) => b.type === "toolCall") ? "toolUse" : "stop"),
	timestamp: ms,
});

function writeLegacyFile(header, entries) {
	const dir = join(OUT, folderFor(LEGACY));
	mkdirSync(dir, { recursive: true });
	const file = join(dir, `${header.timestamp.replace(/[:.]/g, "-")}_${header.id}.jsonl`);
	writeFileSync(file, `${[header, ...entries].map((e) => JSON.stringify(e)).join("\n")}\n`);
	return file;
}

function makeV1Session() {
	let t = RealDate.parse("2026-10-01T07:45:12.000Z");
	const header = { type: "session", id: "3f9c2a1e-7b4d-4c8e-9a51-6d2e8f0b7c34", timestamp: iso(t), cwd: LEGACY };
	const lines = []; // index in file = lines.length + 1 (header is line 0)
	const push = (dt, e) => {
		t += dt;
		lines.push({ ...e, timestamp: iso(t) });
		return lines.length; // file index of this entry
	};
	const msg = (dt, message) => push(dt, { type: "message", message: { ...message, timestamp: t + dt } });
	push(500, { type: "model_change", provider: "anthropic", modelId: "claude-sonnet-4-20250514" });
	push(2, { type: "thinking_level_change", thinkingLevel: "off" });
	msg(31_000, {
		role: "user",
		content: [
			{
				type: "text",
				text: "`deployctl rollout --dry-run` still uploads the artifact to S3 before printing the plan. Make dry runs side-effect free.",
			},
		],
	});
	msg(
		4_100,
		oldAssistant(
			t + 900,
			[{ type: "toolCall", id: "toolu_01LgcyRead0000000000001", name: "read", arguments: { path: "src/commands/rollout.js" } }],
			3120,
			61,
		),
	);
	msg(40, {
		role: "toolResult",
		toolCallId: "toolu_01LgcyRead0000000000001",
		toolName: "read",
		content: [
			{
				type: "text",
				text: 'import { uploadArtifact } from "../s3.js";\nimport { printRolloutPlan, applyRollout } from "../rollout/plan.js";\n\nexport async function rollout(service, opts) {\n  const artifact = await buildArtifact(service);\n  const url = await uploadArtifact(opts.bucket, artifact);\n  const plan = await computePlan(service, url, opts);\n  if (opts.dryRun) {\n    printRolloutPlan(plan);\n    return;\n  }\n  await applyRollout(plan);\n}\n',
			},
		],
		isError: false,
	});
	msg(
		6_300,
		oldAssistant(
			t + 800,
			[
				{
					type: "text",
					text: "`uploadArtifact()` runs before the dry-run check. In dry-run mode the plan can use a placeholder URL computed from the artifact hash instead.",
				},
				{
					type: "toolCall",
					id: "toolu_01LgcyEdit0000000000002",
					name: "edit",
					arguments: {
						path: "src/commands/rollout.js",
						oldText: "  const url = await uploadArtifact(opts.bucket, artifact);",
						// A template with its `${` escaped: the session's code, not an interpolation of ours.
						newText: `  const url = opts.dryRun\n    ? \`s3://\${opts.bucket}/\${artifact.sha256}.tgz (not uploaded)\`\n    : await uploadArtifact(opts.bucket, artifact);`,
					},
				},
			],
			3390,
			158,
		),
	);
	msg(30, {
		role: "toolResult",
		toolCallId: "toolu_01LgcyEdit0000000000002",
		toolName: "edit",
		content: [{ type: "text", text: "Successfully replaced text in src/commands/rollout.js." }],
		isError: false,
	});
	msg(
		2_900,
		oldAssistant(
			t + 600,
			[
				{
					type: "text",
					text: 'Fixed: with `--dry-run` the artifact is built and hashed but never uploaded; the plan shows the would-be S3 URL marked "(not uploaded)".',
				},
			],
			3610,
			44,
		),
	);
	const renameIdx = msg(48_000, {
		role: "user",
		content: [{ type: "text", text: "Now rename --dry-run to --plan and keep --dry-run as a hidden alias for old scripts." }],
	});
	msg(
		5_200,
		oldAssistant(
			t + 700,
			[
				{
					type: "toolCall",
					id: "toolu_01LgcyEdit0000000000003",
					name: "edit",
					arguments: {
						path: "src/cli.js",
						oldText: '  .option("--dry-run", "print the rollout plan without applying it")',
						newText:
							'  .option("--plan", "print the rollout plan without applying it")\n  .addOption(new Option("--dry-run").hideHelp().implies({ plan: true }))',
					},
				},
			],
			3702,
			120,
		),
	);
	msg(25, {
		role: "toolResult",
		toolCallId: "toolu_01LgcyEdit0000000000003",
		toolName: "edit",
		content: [{ type: "text", text: "Successfully replaced text in src/cli.js." }],
		isError: false,
	});
	push(1_500, {
		type: "compaction",
		summary:
			"User asked to make `deployctl rollout` dry runs side-effect free and to rename the flag (ticket OPS-1187).\nDone: the artifact upload is skipped in dry-run mode (src/commands/rollout.js); src/cli.js now defines --plan with a hidden --dry-run alias.\nOpen: update the README usage section.",
		firstKeptEntryIndex: renameIdx,
		tokensBefore: 41_977,
	});
	msg(
		3_300,
		oldAssistant(
			t + 500,
			[
				{
					type: "text",
					text: "Renamed: `deployctl rollout --plan` prints the plan; `--dry-run` still works for old scripts but no longer shows up in `--help`. `opts.dryRun` is now `opts.plan` in rollout.js.",
				},
			],
			2210,
			52,
		),
	);
	msg(39_000, { role: "user", content: [{ type: "text", text: "thanks. update the README usage block too" }] });
	msg(
		4_000,
		oldAssistant(
			t + 600,
			[
				{
					type: "toolCall",
					id: "toolu_01LgcyBash0000000000004",
					name: "bash",
					arguments: {
						command: "sed -i 's/deployctl rollout --dry-run/deployctl rollout --plan/' README.md && grep -n 'rollout --plan' README.md",
					},
				},
			],
			2390,
			70,
		),
	);
	msg(600, {
		role: "toolResult",
		toolCallId: "toolu_01LgcyBash0000000000004",
		toolName: "bash",
		content: [{ type: "text", text: "42:    deployctl rollout --plan api-gateway --env staging" }],
		isError: false,
	});
	msg(2_100, oldAssistant(t + 400, [{ type: "text", text: "README line 42 now shows `deployctl rollout --plan`." }], 2480, 21));
	return { file: writeLegacyFile(header, lines), firstKeptEntryIndex: renameIdx };
}

function makeV2Session() {
	let t = RealDate.parse("2026-10-06T18:22:03.000Z");
	const header = { type: "session", version: 2, id: "8b1e4d2c-5a6f-4e3b-b7c9-1f0a2d3e4c5b", timestamp: iso(t), cwd: LEGACY };
	const ids = [
		"5c0d7e21",
		"a93f1b04",
		"e2b86c57",
		"07d4a9f3",
		"c1e05b8a",
		"4f6a2d19",
		"b8d31e70",
		"91c7f4a2",
		"3ae85d06",
		"d60b92c4",
		"6e2fa817",
	];
	const lines = [];
	let parentId = null;
	const push = (dt, e) => {
		t += dt;
		const id = ids[lines.length];
		lines.push({ type: e.type, id, parentId, timestamp: iso(t), ...e });
		parentId = id;
		return id;
	};
	const msg = (dt, message) => push(dt, { type: "message", message: { ...message, timestamp: t + dt } });
	push(300, { type: "model_change", provider: "anthropic", modelId: "claude-sonnet-4-20250514" });
	push(2, { type: "thinking_level_change", thinkingLevel: "low" });
	msg(27_000, {
		role: "user",
		content: [
			{ type: "text", text: "Generate the CHANGELOG.md section for the next release from the conventional commits since the last tag." },
		],
	});
	// A hook's before_agent_start message (v2 called extension messages "hookMessage"; v3 renames the role to "custom").
	msg(15, {
		role: "hookMessage",
		customType: "git-context",
		content: "Last tag v2.2.4, 5 commits since. Working tree dirty (package.json).",
		display: true,
		details: { tag: "v2.2.4", commitsSince: 5, dirty: ["package.json"] },
	});
	msg(
		3_900,
		oldAssistant(
			t + 600,
			[
				{
					type: "toolCall",
					id: "toolu_01V2Bash00000000000000001",
					name: "bash",
					arguments: { command: "git log v2.2.4..HEAD --pretty=format:'%h %s'" },
				},
			],
			3010,
			48,
		),
	);
	msg(150, {
		role: "toolResult",
		toolCallId: "toolu_01V2Bash00000000000000001",
		toolName: "bash",
		content: [
			{
				type: "text",
				text: "9e41c0a feat(rollout): add --plan flag, keep --dry-run as hidden alias\nb27d9f3 fix(rollout): never upload the artifact in plan mode\n5a0c8e1 docs: update rollout usage\nf13b6d2 chore(deps): bump commander to 12.1.0\n0c7e2aa feat(status): show canary weight in `deployctl status`",
			},
		],
		isError: false,
	});
	msg(
		7_400,
		oldAssistant(
			t + 900,
			[
				{ type: "text", text: "Two features and one fix since v2.2.4, so the next version is 2.3.0 (minor)." },
				{
					type: "toolCall",
					id: "toolu_01V2Edit00000000000000002",
					name: "edit",
					arguments: {
						path: "CHANGELOG.md",
						oldText: "# Changelog\n",
						newText:
							"# Changelog\n\n## 2.3.0 (2026-10-06)\n\n### Features\n\n- **rollout:** add `--plan` flag, keep `--dry-run` as hidden alias (9e41c0a)\n- **status:** show canary weight in `deployctl status` (0c7e2aa)\n\n### Bug Fixes\n\n- **rollout:** never upload the artifact in plan mode (b27d9f3)\n",
					},
				},
			],
			3420,
			201,
		),
	);
	msg(30, {
		role: "toolResult",
		toolCallId: "toolu_01V2Edit00000000000000002",
		toolName: "edit",
		content: [{ type: "text", text: "Successfully replaced text in CHANGELOG.md." }],
		isError: false,
	});
	msg(
		2_600,
		oldAssistant(
			t + 500,
			[
				{
					type: "text",
					text: "Added a `## 2.3.0 (2026-10-06)` section to CHANGELOG.md: Features (rollout --plan, status canary weight) and Bug Fixes (no upload in plan mode). The docs and chore commits are left out, as conventional-changelog does by default.",
				},
			],
			3690,
			62,
		),
	);
	push(20_000, { type: "session_info", name: "Changelog for 2.3.0" });
	return writeLegacyFile(header, lines);
}

// ---------------------------------------------------------------------------------------------
// Generate
// ---------------------------------------------------------------------------------------------

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });

const v1 = makeV1Session();
const v2File = makeV2Session();
const { s: linear, forkPoint } = makeLinearSession();
const linearFile = linear.file;
const branched = makeBranchedSession();
const bashS = makeBashSession();
const fork = makeForkSession(linearFile, forkPoint);
const chinese = makeChineseSession();
const compaction = makeCompactionSession();
const decision = makeDecisionSession();
const cliDates = makeCliDatesSession();

// Post-process: parentSession holds an absolute path of this machine -> fake agent-dir path.
const allFiles = [];
for (const folder of readdirSync(OUT).sort()) {
	if (!folder.startsWith("--")) continue;
	for (const name of readdirSync(join(OUT, folder)).sort()) allFiles.push(join(OUT, folder, name));
}
for (const file of allFiles) {
	const text = readFileSync(file, "utf8");
	const nl = text.indexOf("\n");
	const header = JSON.parse(text.slice(0, nl));
	if (typeof header.parentSession === "string") {
		header.parentSession = `${FAKE_AGENT_SESSIONS}/${basename(dirname(header.parentSession))}/${basename(header.parentSession)}`;
		writeFileSync(file, JSON.stringify(header) + text.slice(nl));
	}
}

// ---------------------------------------------------------------------------------------------
// Verify the planted facts (README lists them; fail loudly if the content drifts)
// ---------------------------------------------------------------------------------------------

const rel = (f) => relative(OUT, f).split("\\").join("/");
const load = (f) =>
	readFileSync(f, "utf8")
		.split("\n")
		.filter(Boolean)
		.map((l) => JSON.parse(l));

/** All searchable strings of one entry (image data and signatures excluded), tagged by kind. */
function texts(e) {
	const out = [];
	const blocks = (content, kind) => {
		if (typeof content === "string") return out.push([kind, content]);
		for (const b of content ?? []) {
			if (b.type === "text") out.push([kind, b.text]);
			else if (b.type === "thinking") out.push(["thinking", b.thinking]);
			else if (b.type === "toolCall") out.push(["toolCall", JSON.stringify(b.arguments)]);
		}
	};
	if (e.type === "message") {
		const m = e.message;
		if (m.role === "bashExecution") out.push(["bashExecution", `${m.command}\n${m.output}`]);
		else blocks(m.content, m.role);
	} else if (e.type === "custom_message") blocks(e.content, "custom_message");
	else if (e.type === "compaction") out.push(["compaction", e.summary]);
	else if (e.type === "branch_summary") out.push(["branch_summary", e.summary]);
	else if (e.type === "session_info") out.push(["session_info", e.name ?? ""]);
	else if (e.type === "label") out.push(["label", e.label ?? ""]);
	else if (e.type === "custom") out.push(["custom", JSON.stringify(e.data)]);
	return out;
}

const sessions = {
	linear: linearFile,
	branched: branched.file,
	fork: fork.file,
	bash: bashS.file,
	chinese: chinese.file,
	compaction: compaction.file,
	decision: decision.file,
	"cli-dates": cliDates.file,
	v1: v1.file,
	v2: v2File,
};
const keyOf = Object.fromEntries(Object.entries(sessions).map(([k, f]) => [f, k]));
const parsed = Object.fromEntries(Object.entries(sessions).map(([k, f]) => [k, load(f)]));

/** Where a term occurs: [{ session, kind, entryId|index }] */
function where(term) {
	const hits = [];
	for (const [k, entries] of Object.entries(parsed)) {
		entries.forEach((e, i) => {
			for (const [kind, t] of texts(e)) if (t.includes(term)) hits.push({ session: k, kind, id: e.id ?? `#${i}`, index: i });
		});
	}
	return hits;
}
function activePath(entries) {
	const byId = new Map(entries.filter((e) => e.id).map((e) => [e.id, e]));
	const ids = new Set();
	for (let e = entries[entries.length - 1]; e; e = byId.get(e.parentId)) ids.add(e.id);
	return ids;
}
const failures = [];
function expect(cond, msg) {
	if (!cond) failures.push(msg);
}
function only(term, sessionKeys, kinds) {
	const hits = where(term);
	const ss = [...new Set(hits.map((h) => h.session))].sort();
	expect(JSON.stringify(ss) === JSON.stringify([...sessionKeys].sort()), `${term}: sessions ${ss} != ${sessionKeys}`);
	if (kinds) {
		const ks = [...new Set(hits.map((h) => h.kind))].sort();
		expect(JSON.stringify(ks) === JSON.stringify([...kinds].sort()), `${term}: kinds ${ks} != ${kinds}`);
	}
	return hits;
}

// 1 linear + 3 fork
only("RetryPolicy", ["linear", "fork"]);
only("stateStore", ["linear", "fork"]);
only("webhook:attempts:", ["linear", "fork"]);
only("webhook delivery abandoned", ["linear"], ["assistant", "toolCall"]);
only("decorrelated jitter", ["fork"]);
only("retry-policy-v1", ["linear", "fork"], ["label"]);
only("Retry policy for payment webhooks", ["linear", "fork"], ["session_info"]);
{
	const forkEntries = parsed.fork;
	const linearIds = new Set(parsed.linear.map((e) => e.id).filter(Boolean));
	const copied = forkEntries.filter((e) => linearIds.has(e.id));
	expect(copied.length >= 10, "fork: copied entries keep their ids");
	expect(forkEntries[0].parentSession === `${FAKE_AGENT_SESSIONS}/${rel(linearFile)}`, "fork: parentSession rewritten");
}
// 2 branched
{
	const hits = only("RabbitMQ", ["branched"]);
	const path = activePath(parsed.branched);
	expect(
		hits.every((h) => !path.has(h.id)),
		"RabbitMQ must only be on an abandoned branch",
	);
	for (const t of ["amqplib", "quorum", "orders.fulfilment"]) {
		const h = only(t, ["branched"]);
		expect(
			h.every((x) => !path.has(x.id)),
			`${t} must only be on an abandoned branch`,
		);
	}
	const pc = only("poisonCount", ["branched"], ["user", "assistant", "branch_summary"]);
	expect(
		pc.filter((h) => path.has(h.id)).every((h) => h.kind === "branch_summary"),
		"poisonCount on the active path only via branch_summary",
	);
	only("removeOnFail", ["branched"], ["branch_summary"]);
	only("dlq-design", ["branched"], ["label"]);
	expect(
		only("orders-dead-letter", ["branched"]).some((h) => path.has(h.id)),
		"orders-dead-letter on the active path",
	);
	expect(
		only("lockDuration", ["branched"]).some((h) => path.has(h.id)),
		"lockDuration on the active path",
	);
}
// 4 compaction
{
	const hits = only("47813", ["compaction"], ["assistant", "toolCall"]);
	const entries = parsed.compaction;
	const comp = entries.find((e) => e.type === "compaction");
	const keptIndex = entries.findIndex((e) => e.id === comp.firstKeptEntryId);
	expect(
		hits.every((h) => h.index < keptIndex),
		"47813 only before firstKeptEntryId",
	);
	only("restart storm", ["compaction"], ["compaction"]);
	only("Cannot use a pool after calling end", ["compaction"], ["assistant"]);
}
// 5 Chinese
for (const t of ["数据库", "错误", "索引", "锁", "死锁", "批量导入死锁排查"]) only(t, ["chinese"]);
only("idx_stock_sku", ["chinese"]);
only("deadlock detected", ["chinese"], ["user"]);
// 6 bashExecution
only("SQLITE_BUSY: database is locked", ["bash"], ["bashExecution"]);
only("SQLITE_BUSY", ["bash"], ["bashExecution", "user", "assistant", "toolCall"]);
only("busyTimeout", ["bash"]);
// 7 custom / custom_message
only("INV-2291", ["bash"], ["custom"]);
only("no-floating-promises", ["bash"], ["custom_message"]);
// 8 legacy
only("OPS-1187", ["v1"], ["compaction"]);
only("uploadArtifact", ["v1"]);
only("Working tree dirty", ["v2"], ["hookMessage"]);
only("conventional", ["v2"]);
// 9 decision, long tool result, thinking, image
only("we decided to use sql.js with FTS5 instead of better-sqlite3 because native modules break under Bun", ["decision"], ["assistant"]);
only("snorkelwaffle", ["decision"], ["thinking"]);
only("better-sqlite3", ["decision"]);
only("sql.js", ["decision", "cli-dates"]);
const longResult = { total: FTS_INDEX_TS.length };
for (const [name, token] of [
	["head", "NOTES_FTS_SCHEMA_V4"],
	["middle", "rebuildTrigramShadowTable"],
	["tail", "legacySnippetsV0Cleanup"],
]) {
	only(token, ["decision"], ["toolResult"]);
	longResult[name] = { token, first: FTS_INDEX_TS.indexOf(token), last: FTS_INDEX_TS.lastIndexOf(token) };
}
expect(longResult.total > 5000, "long tool result > 5000 chars");
expect(longResult.tail.first > longResult.total - 400, "tail token within the last 400 chars");
expect(longResult.head.last < 200, "head token within the first 200 chars");
expect(longResult.middle.first === longResult.middle.last, "middle token once");
{
	const img = parsed.decision.find((e) => e.message?.role === "user" && e.message.content.some((b) => b.type === "image"));
	expect(!!img, "decision: user message with an image block");
}
// every parentId resolves inside its file (no dangling links)
for (const [k, entries] of Object.entries(parsed)) {
	const ids = new Set(entries.map((e) => e.id).filter(Boolean));
	for (const e of entries) if (e.parentId) expect(ids.has(e.parentId), `${k}: dangling parentId ${e.parentId} of ${e.id}`);
}
// global: no real paths, size
let totalBytes = 0;
for (const f of allFiles) {
	const text = readFileSync(f, "utf8");
	totalBytes += text.length;
	for (const bad of ["/work", "/tmp", REPO, homedir(), process.cwd()]) {
		expect(!text.includes(bad), `${rel(f)} contains ${bad}`);
	}
	expect(rel(f).startsWith("--home-dev-projects-"), `${rel(f)} folder name`);
}
expect(totalBytes < 300_000, `fixtures too big: ${totalBytes}`);

// ---------------------------------------------------------------------------------------------
// README
// ---------------------------------------------------------------------------------------------

const span = (k) => {
	const ts = parsed[k]
		.map((e) => e.timestamp)
		.filter(Boolean)
		.sort();
	return `${ts[0].slice(0, 16).replace("T", " ")} – ${ts[ts.length - 1].slice(0, 16).replace("T", " ")} UTC`;
};
const idOf = (k) => parsed[k][0].id;
const comp = parsed.compaction.find((e) => e.type === "compaction");
const f = (k) => `\`${rel(sessions[k])}\``;

const readme = `# Pi session fixtures

Generated by \`npm run samples\` (\`scripts/make-samples.mjs\`) with the real \`SessionManager\` of
\`@mariozechner/pi-coding-agent\` 0.73.1 (the v1 and v2 files are written by hand because Pi only writes v3).
**Do not edit by hand**: re-running the script deletes this folder and regenerates it byte-for-byte
(fake clock, seeded ids), then checks every fact listed below and fails if one no longer holds.

Layout = \`<agentDir>/sessions/\`: \`--home-dev-projects-<name>--/<fileTimestamp>_<sessionId>.jsonl\`.
All cwds are fake (\`/home/dev/projects/{webshop,inventory-api,devnotes,legacy-cli}\`); the fork's
\`parentSession\` was rewritten to \`${FAKE_AGENT_SESSIONS}/<folder>/<file>\`. Timestamps span
2026-10-01 … 2026-11-20 (UTC), every session on its own day(s). Provider/model: anthropic \`claude-sonnet-4-5\`
(v3 files), \`openai/gpt-5.1-codex\` after the model switch in the bash session, \`claude-sonnet-4-20250514\` in v1/v2.

"Only in X" below refers to the text of the file: user/assistant text, thinking, toolCall arguments, toolResult
content, bashExecution command/output, custom_message content, compaction/branch_summary summary, session
name, label, custom entry data. lookback indexes all of these except thinking blocks and \`custom\` entry data
(extension state, never sent to the model), so those two must NOT be found by search. Not counted: \`edit\` toolResults' \`details.diff\` (Pi's real diff of the edited
code, so it repeats code from the toolCall, e.g. \`47813\`), image data, thinking signatures, usage.

## Sessions (one line each)

- **v1** ${f("v1")} — 2026-10-01, legacy v1 (no \`version\`, no \`id\`/\`parentId\`), deployctl: make \`rollout --dry-run\` side-effect free (\`uploadArtifact\` skipped), rename to \`--plan\` with hidden \`--dry-run\` alias; one \`compaction\` with \`firstKeptEntryIndex: ${v1.firstKeptEntryIndex}\` (file line index, header = 0; points at the user message "Now rename --dry-run to --plan…"); planted: \`OPS-1187\` only in the compaction summary, \`uploadArtifact\` only here (before the kept index).
- **linear** ${f("linear")} — ${span("linear")}, name "Retry policy for payment webhooks"; plain linear session: read/write/edit/bash tool calls adding \`RetryPolicy\` (src/payments/retryPolicy.ts) to \`PaymentWebhookClient\` (src/payments/webhookClient.ts), attempt counter \`webhook:attempts:<eventId>\` in the \`stateStore\`; label \`retry-policy-v1\` on the assistant message that wrote retryPolicy.ts; planted: "webhook delivery abandoned" only here (after the fork point, absent from the fork).
- **v2** ${f("v2")} — 2026-10-06, legacy v2 (ids/parentIds, \`version: 2\`), CHANGELOG 2.3.0 from conventional commits since tag v2.2.4; one \`message\` with role \`hookMessage\` (customType \`git-context\`, content "Last tag v2.2.4, 5 commits since. Working tree dirty (package.json).") → role \`custom\` after migration; name "Changelog for 2.3.0"; planted: "Working tree dirty" only in the hookMessage, "conventional" only here.
- **branched** ${f("branched")} — ${span("branched")} (two days), name "Order queue: dead-letter handling"; BullMQ order queue with two abandoned branches: (1) plain \`branch()\` back to the options message — "migrate the queue to RabbitMQ" with \`amqplib\`, quorum queue \`orders.fulfilment\` (RabbitMQ/amqplib/quorum/orders.fulfilment occur ONLY in abandoned entries); (2) poison-pill counter \`poisonCount\`, abandoned via \`branchWithSummary\` (branch_summary entry on the active path mentions \`poisonCount\` and is the ONLY place with \`removeOnFail\`); active path: \`lockDuration: 60_000\`, \`stalledInterval\`, \`maxStalledCount\`, dead-letter queue \`orders-dead-letter\`, a DLQ vitest test; label \`dlq-design\` on the assistant message describing the DLQ.
- **bash** ${f("bash")} — ${span("bash")}, unnamed; inventory-api: \`bashExecution\` "npm test" (exitCode 1) whose output has \`Error: SQLITE_BUSY: database is locked\` in test "reserveStock > reserves stock for concurrent orders" (the full phrase "SQLITE_BUSY: database is locked" ONLY in that bashExecution), fix = \`busyTimeout\` 5000 + \`PRAGMA journal_mode = WAL\` in src/db/connection.ts; then \`model_change\` to openai/gpt-5.1-codex + \`thinking_level_change\` high; \`custom_message\` (customType \`lint-report\`, display true) — ONLY place with \`no-floating-promises\`; \`custom\` entry (customType \`todo-state\`) at the start whose data holds ticket \`INV-2291\` (ONLY there); a cancelled bashExecution "npm run dev" (no exitCode, cancelled true) and an \`excludeFromContext\` one ("git status --short", \`!!\`).
- **fork** ${f("fork")} — ${span("fork")} (copied entries keep their 2026-10-03 timestamps, new ones are 2026-10-21); \`createBranchedSession()\` of the linear session at its "Done." summary message: same entry ids as the parent up to that point, the \`retry-policy-v1\` label re-created with a new id after the copied path, header \`parentSession\` = ${FAKE_AGENT_SESSIONS}/${rel(linearFile)}; new messages add "decorrelated jitter" to \`RetryPolicy.delayFor()\` (ONLY in this file), one failing bash test run (isError) then green; two session_info entries: inherited "Retry policy for payment webhooks", then "Retry jitter (fork of retry policy)" (last wins).
- **chinese** ${f("chinese")} — ${span("chinese")}, name "批量导入死锁排查"; Chinese conversation about 数据库 锁 错误 (PostgreSQL \`ERROR: deadlock detected\`, 40P01, 55P03) in jobs/importStock.ts: 死锁, 行锁, standalone 锁 (user: "那锁 等待 超时…", "还有 锁 是在…"), 索引 \`idx_stock_sku\` via \`CREATE UNIQUE INDEX CONCURRENTLY\`, \`SET LOCAL lock_timeout = '5s'\`; ALL Chinese text of the fixtures is in this file.
- **compaction** ${f("compaction")} — ${span("compaction")}, name "Flaky dev server restarts"; tsx watch restart loop caused by coverage/ + debugger port; \`compaction\` entry (tokensBefore ${comp.tokensBefore}, firstKeptEntryId \`${comp.firstKeptEntryId}\` = the user message "Restarts are fine now. But after each restart \`GET /healthz\` returns 500…"); planted: inspector port \`47813\` ONLY in entries before firstKeptEntryId (assistant text + edit toolCall; not in the summary), "restart storm" ONLY in the compaction summary; after the compaction: pool-shutdown fix ("Cannot use a pool after calling end on the pool").
- **decision** ${f("decision")} — ${span("decision")}, name "Storage engine decision"; devnotes: user message with an \`image\` block (2×2 PNG, base64) + text about empty snippets; assistant \`thinking\` block containing the unique word \`snorkelwaffle\` (thinking only — must NOT be found by search); long \`read\` toolResult of src/index/ftsIndex.ts (${longResult.total} chars): head token \`${longResult.head.token}\` at char ${longResult.head.first}, middle token \`${longResult.middle.token}\` at char ${longResult.middle.first}, tail token \`${longResult.tail.token}\` at chars ${longResult.tail.first}…${longResult.tail.last} (all three only in that tool result); snippet column bug fixed; decision sentence in assistant text: "we decided to use sql.js with FTS5 instead of better-sqlite3 because native modules break under Bun" (ADR docs/decisions/0003-storage-engine.md written); \`better-sqlite3\` occurs only in this file.
- **cli-dates** ${f("cli-dates")} — ${span("cli-dates")}, name "CLI --since/--until flags"; devnotes: ls/grep/read/edit/find/bash tool calls adding \`--since\`/\`--until\` and \`parseWhen()\` to src/cli/args.ts; mentions sql.js in passing (distractor for the decision query).

## Quick reference for search tests

| query / term | expected hits |
|---|---|
| \`RabbitMQ\`, \`amqplib\`, \`orders.fulfilment\` | branched only, abandoned branch only (not on the active path) |
| \`removeOnFail\` | branched, branch_summary only |
| \`poisonCount\` | branched: abandoned user/assistant + the branch_summary |
| \`decorrelated jitter\` | fork only |
| \`webhook delivery abandoned\` | linear only (after the fork point) |
| \`RetryPolicy\`, \`stateStore\` | linear and fork (fork copies the same entries, same ids) |
| \`SQLITE_BUSY: database is locked\` | bash, bashExecution output only |
| \`INV-2291\` | bash, \`custom\` entry data only (not conversation text) → expected: NO search hit |
| \`no-floating-promises\` | bash, custom_message only |
| \`47813\` | compaction, only before firstKeptEntryId |
| \`restart storm\` | compaction summary only |
| \`OPS-1187\` | v1 compaction summary only |
| \`Working tree dirty\` | v2 hookMessage only |
| \`snorkelwaffle\` | decision, thinking block only → expected: NO search hit |
| \`NOTES_FTS_SCHEMA_V4\` / \`rebuildTrigramShadowTable\` / \`legacySnippetsV0Cleanup\` | decision, one toolResult: head / middle / tail of a ${longResult.total}-char text |
| \`sql.js\` … \`better-sqlite3\` … \`Bun\` | decision (the decision sentence); \`sql.js\` also in cli-dates |
| \`数据库\`, \`锁\`, \`错误\`, \`索引\`, \`死锁\` | chinese only |
| date filter \`since 2026-11-01\` | compaction, decision, cli-dates (by entry time) |
| date filter \`until 2026-10-08\` | v1, linear, v2 (and the fork's copied entries dated 2026-10-03) |

Session ids: ${Object.keys(sessions)
	.map((k) => `${k} \`${idOf(k)}\``)
	.join(", ")}.
`;
writeFileSync(join(OUT, "README.md"), readme);

if (failures.length) {
	console.error(`make-samples: ${failures.length} planted-fact check(s) failed:\n- ${failures.join("\n- ")}`);
	process.exit(1);
}
console.log(`wrote ${allFiles.length} session files (${totalBytes} bytes) + README.md to ${relative(REPO, OUT)}`);
for (const file of allFiles) console.log(`  ${keyOf[file].padEnd(10)} ${rel(file)}`);
