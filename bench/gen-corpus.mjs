#!/usr/bin/env node
/**
 * bench/gen-corpus.mjs — deterministic synthetic corpus of Pi coding-agent sessions (JSONL, session format v3).
 *
 * Usage:
 *   node bench/gen-corpus.mjs --out DIR --mb 50 [--seed 42] [--agent pi|omp] [--force]
 *     writes DIR/sessions/--home-dev-<project>--/<fileTimestamp>_<uuidv7>.jsonl until the JSONL bytes reach
 *     mb * 10^6, writes DIR/corpus.json (the summary) and prints the summary as one JSON line.
 *     An existing DIR/sessions (and DIR/archive) is deleted first only if DIR/corpus.json (written by this script)
 *     exists; otherwise a non-empty one is an error unless --force is given.
 *   node bench/gen-corpus.mjs --append DIR --count 10 [--seed 7]
 *     appends 1–3 valid entries to 10 existing files (see appendToFiles) and prints the bytes appended.
 *
 *   import { generateCorpus, appendToFiles, MARKERS } from "./gen-corpus.mjs";
 *   const summary = generateCorpus({ out, mb, seed, agent });  // agent "pi" (default) | "omp"; synchronous
 *   const added = appendToFiles({ dir: out, count: 10, seed: 1 }); // number of bytes appended
 *
 * Determinism: mulberry32 PRNG; every session i draws from its own stream seeded by (seed, i), and planted markers
 * follow a global message counter, so for one seed a smaller corpus is a prefix of a larger one (same files, same
 * bytes), except that the last file of the smaller corpus is cut short.
 *
 * Planted markers (rare-term queries). Counted over newly generated `message` entries in generation order (entries
 * copied into forks are not counted again, but their text is duplicated in the fork file):
 *   DHTDynamicResolverV2   planted in message #k when (k + 1234) % 2500 === 0   (1 in 2,500 messages)
 *   zanzibarRetryPolicy    planted in message #k when (k + 4321) % 8000 === 0   (1 in 8,000 messages)
 *   死锁检测                planted in message #k when (k + 777)  % 3000 === 0   (1 in 3,000 messages)
 * Nowhere else do these strings occur (the generator rewrites any accidental "死锁检测" to "死锁的检测").
 * The summary reports, per marker, `planted` (messages) and `occurrences` (including fork copies) — the number of
 * lines containing the term in the whole corpus equals `occurrences`.
 * appendToFiles() puts the probe term `lookbackSyncProbe<seed>` in each appended user message.
 *
 * Shape (what a benchmark author should know):
 *  - Header {type:"session",version:3,id,timestamp,cwd[,parentSession]}, then model_change (root),
 *    thinking_level_change, then message / compaction / branch_summary / label / session_info / custom /
 *    custom_message / model_change entries with 8-hex ids and parentId chains; entry timestamps never decrease
 *    within a file (fork files: copied prefix keeps the parent's timestamps).
 *  - Sessions start uniformly in the ~6 months before 2026-11-29T00:00Z; 20–40 projects (/home/dev/<project>) with
 *    Zipf popularity; each project has a language (TS, Python, Rust, Go) and a stable virtual file tree whose file
 *    contents are derived from (project, path, week), so the same file read twice in a week has the same text.
 *  - File sizes are log-normal (median ~130 KB, mean ~380–430 KB; largest ~4 MB at 50 MB, ~17 MB at 500 MB),
 *    each capped at ~24 MB (< 25 MB, far below 32 MiB). ~280 messages per MB.
 *  - toolResult messages carry most bytes (reads of 0.4–140 KB files truncated at 50 KB/2000 lines like pi does,
 *    test logs with stack traces, git diffs, listings). Like pi 0.73.1, truncated read/bash results repeat the
 *    shown text in details.truncation.content, and edit results carry details.diff — index content[], not details.
 *  - ~10% of messages contain Chinese (sessions by Chinese-speaking users, plus some mixed ones).
 *  - ~10% sessions have an abandoned branch (sometimes with a branch_summary), ~5% are forks (new file, header
 *    parentSession = "/home/dev/.pi/agent/sessions/--home-dev-<p>--/<parent basename>", the parent's first N
 *    entries copied with the same ids/timestamps), ~8% have compaction(s) (context above model window − 16384).
 *
 * omp mode (`--agent omp`, `generateCorpus({ ..., agent: "omp" })`; default "pi", whose output does not change):
 * the store of oh-my-pi 18.x (the format test/omp/ checks against the real omp). Same sessions, projects and text kit, plus:
 *  - DIR/sessions/-<project>/<fileTimestamp>_<id>.jsonl (omp's bucket for a cwd under $HOME=/home/dev: "-" + the
 *    relative path with / replaced by -). Line 1 is the fixed-width title slot, exactly 256 UTF-8 bytes with the
 *    newline: {"type":"title","v":1,"title":"…","updatedAt":"…","source":"auto"|"user","pad":"   …"}; ~70% of
 *    sessions have a short auto title (also in the header's `title`), the rest "". Line 2 is the header.
 *  - model_change {model:"provider/id"}; no session_info; ~12% of sessions get a user rename
 *    title_change {title, previousTitle?, source:"user"} (the slot then holds that title, source "user");
 *    user messages carry attribution:"user"; a few `developer` messages and `pythonExecution` messages
 *    {code, output, exitCode, timestamp}; compaction/branch_summary have fromExtension (not fromHook) and compactions
 *    usually a shortSummary; custom {customType:"session_exit"} ends every session and precedes each resume after
 *    a pause of hours. Forks name their parent as /home/dev/.omp/agent/sessions/-<p>/<parent basename>.
 *  - ~40% of sessions call the `task` tool: their first tool step is a task call, later steps are with chance 0.5
 *    up to 3–6 calls; 1–8 agents a call (mean ~4.9), arguments {agents:[{name,task}]}. Each agent's transcript is
 *    DIR/sessions/-<p>/<session stem>/<name>.jsonl (name like explore-1, fix-2): title slot (title ""), header,
 *    session_init {parentId:null, systemPrompt, task, tools[]}, the task as a user message (attribution:"agent"),
 *    tool steps with the agent's tools (mean file ~22 KB), a final reply; the parent's task toolResult quotes each
 *    agent's reply. A session and its agents share one size target (raised by 25 KB per allowed call), so the
 *    agents' bytes count towards the corpus size. Sub-agent files outnumber sessions about 5:1 (4.3–5.2 over seeds
 *    at 50–200 MB); fork files copy their parent's task calls, whose agents stay in the parent's folder.
 *  - ~5% of sessions (only ones older than 45 days, never with sub-agents, never fork parents) are written instead as
 *    DIR/archive/sessions/<YYYY-MM>/<fileTimestamp>_<id>.jsonl.gz (gzip of the same bytes).
 *  - Sizes: `bytes` counts uncompressed bytes of all files (sessions, sub-agents, archives before gzip); the summary
 *    adds `subagentFiles`, `subagentBytes`, `archivedFiles`, `archivedBytes`, `archivedCompressedBytes`; `files`
 *    counts every file written, `sessions` the top-level sessions (live + archived), `fileBytes` is over those.
 *  - Markers are planted the same way (sub-agent messages count in the global message counter; the copy of an
 *    agent's reply in the parent's task result drops any marker, so `occurrences` stays the number of lines).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const GENERATOR = "lookback/bench/gen-corpus.mjs";
const GEN_VERSION = 1;
const DAY = 86400000;
const END_MS = Date.UTC(2026, 10, 29, 0, 0, 0); // 2026-11-29T00:00:00Z
const WINDOW_MS = 182 * DAY;
const MAX_TARGET = 24_000_000; // per-file target; a file overshoots by at most one tool step
const MAX_BYTES = 50 * 1024; // pi DEFAULT_MAX_BYTES
const MAX_LINES = 2000; // pi DEFAULT_MAX_LINES
const ZH_SESSION_P = 0.14;
const HOME = "/home/dev";
const SLOT_BYTES = 256; // omp title slot, newline included

export const MARKERS = [
	{ term: "DHTDynamicResolverV2", every: 2500, offset: 1234, cjk: false },
	{ term: "zanzibarRetryPolicy", every: 8000, offset: 4321, cjk: false },
	{ term: "死锁检测", every: 3000, offset: 777, cjk: true },
];
const PH = MARKERS.map((_, i) => `\u0001MK${i}\u0001`); // placeholder inside message objects
const JPH = MARKERS.map((_, i) => `\\u0001MK${i}\\u0001`); // ... as it appears after JSON.stringify

// ───────────────────────────────────────────── PRNG ─────────────────────────────────────────────

class Rng {
	constructor(seed) {
		this.s = seed | 0;
		this.g = null;
	}
	next() {
		let t = (this.s = (this.s + 0x6d2b79f5) | 0);
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}
	int(n) {
		return Math.floor(this.next() * n);
	}
	range(a, b) {
		return a + this.int(b - a + 1);
	}
	chance(p) {
		return this.next() < p;
	}
	pick(a) {
		return a[Math.floor(this.next() * a.length)];
	}
	normal() {
		if (this.g !== null) {
			const g = this.g;
			this.g = null;
			return g;
		}
		let u = this.next();
		while (u === 0) u = this.next();
		const v = this.next();
		const m = Math.sqrt(-2 * Math.log(u));
		this.g = m * Math.sin(2 * Math.PI * v);
		return m * Math.cos(2 * Math.PI * v);
	}
	logn(median, sigma) {
		return median * Math.exp(sigma * this.normal());
	}
	hex(n) {
		let s = "";
		while (s.length < n) s += ((this.next() * 4294967296) >>> 0).toString(16).padStart(8, "0");
		return s.slice(0, n);
	}
	b62(n) {
		const A = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
		let s = "";
		for (let i = 0; i < n; i++) s += A[Math.floor(this.next() * 62)];
		return s;
	}
	weighted(items) {
		// items: [[value, weight], ...]
		let tot = 0;
		for (const it of items) tot += it[1];
		let x = this.next() * tot;
		for (const it of items) if ((x -= it[1]) < 0) return it[0];
		return items[items.length - 1][0];
	}
}

function hash32(str) {
	let h = 0x811c9dc5;
	for (let i = 0; i < str.length; i++) {
		h ^= str.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	h ^= h >>> 16;
	h = Math.imul(h, 0x85ebca6b);
	h ^= h >>> 13;
	h = Math.imul(h, 0xc2b2ae35);
	h ^= h >>> 16;
	return h >>> 0;
}
const seedOf = (...parts) => hash32(parts.join("\u0001"));

/** Zipf sampler over ranks 0..n-1 via a quantized inverse-CDF table, plus a 4% uniform tail. */
class Zipf {
	constructor(n, s, bits = 17) {
		this.n = n;
		const size = 1 << bits;
		this.size = size;
		this.table = new Uint32Array(size);
		let tot = 0;
		for (let i = 0; i < n; i++) tot += 1 / (i + 1) ** s;
		let acc = 0;
		let j = 0;
		for (let i = 0; i < n; i++) {
			acc += 1 / (i + 1) ** s / tot;
			const end = Math.min(size, Math.round(acc * size));
			while (j < end) this.table[j++] = i;
		}
		while (j < size) this.table[j++] = n - 1;
	}
	idx(r) {
		const x = r.next();
		if (x < 0.04) return Math.floor((x / 0.04) * this.n);
		return this.table[Math.floor(((x - 0.04) / 0.96) * this.size)];
	}
}

// ─────────────────────────────────────────── Vocabulary ───────────────────────────────────────────

const EN_COMMON = `the of and to a in is it that for you was with on as have be at not this are but by from or we
can an they which do if will all would there their so what up out about who get when make like time no just know
take into your good some could them see other than then now look only come its over think also back after use two
how our work first well way even new want because any these give day most us should need where here still find
thing tell very through long why ask try before must right too while same each much does change keep both those
start might show again never really under last around another something without already instead since during
though next check run call fix add remove update test case value return error file line issue problem path result
output input current previous default actually probably simply maybe however rather almost often usually
currently likely yet seems means happens expected wrong missing broken correct fine okay sure clear done less more
few many several whole small large fast slow early late older newer single multiple empty full simple complex
possible different important similar specific general local global main extra final original proper safe correct
hard easy true false open close read write load save send receive wait stop handle support allow prevent avoid
ensure include contain follow happen become remain appear consider create delete move copy match replace split
join parse format convert compare print report track store fetch apply build install configure release deploy`
	.split(/\s+/)
	.filter(Boolean);

const EN_TECH = `function method class module package import export type interface struct enum trait field property
variable constant parameter argument callback promise async await thread process worker pool queue stack heap
buffer stream socket connection request response header body payload schema table column row index query
transaction commit rollback migration database cache lock mutex semaphore deadlock race condition timeout retry
backoff latency throughput benchmark profile memory leak allocation garbage collector pointer reference borrow
lifetime generic closure iterator generator coroutine goroutine channel select context cancellation signal handler
middleware router endpoint server client proxy gateway balancer replica shard partition cluster node leader
follower consensus raft snapshot checkpoint journal log entry record event message topic subscriber publisher
producer consumer offset cursor page token session cookie credential secret key certificate encryption hash digest
signature checksum compression serialization json yaml toml protobuf grpc http websocket api sdk cli flag option
config environment build compile linker bundle minify transpile typescript javascript python rust golang node npm
pip cargo docker container image registry kubernetes pod deployment service ingress volume mount permission user
group role policy scope tenant account billing invoice metric trace span dashboard alert incident regression bug
patch release version tag branch merge rebase conflict diff hunk fixture mock stub assertion coverage lint
formatter tokenizer parser lexer grammar ast syntax semantic vector embedding ranking score bm25 trigram fts sqlite
wasm indexer search filter sort limit batch chunk segment blob schema validator decoder encoder adapter plugin
extension hook listener watcher scheduler cron job task pipeline stage step workflow artifact manifest lockfile
dependency upstream downstream fork clone remote origin upstream staging production sandbox fallback heuristic
threshold quota budget bucket window sliding counter histogram percentile p95 p99 jitter spike outage`
	.split(/\s+/)
	.filter(Boolean);

const ZH_WORDS = `的 了 是 在 我们 这个 一个 需要 可以 问题 因为 所以 然后 如果 但是 已经 还是 就 也 都 把 被 让 会 要 不
没有 现在 之后 之前 时候 应该 可能 直接 先 再 一下 这里 里面 看看 觉得 为什么 怎么 如何 什么 哪些 所有 每个 其他 一些
比较 非常 主要 另外 同时 并且 或者 而且 目前 部分 方式 方法 情况 结果 原因 地方 逻辑 实现 处理 调用 使用 修改 添加
删除 更新 检查 确认 支持 保证 避免 导致 出现 发现 解决 优化 提升 降低 增加 减少 运行 执行 启动 停止 返回 传入 读取
写入 加载 保存 数据库 索引 错误 锁 修复 缓存 性能 查询 事务 并发 线程 进程 内存 泄漏 超时 重试 配置 部署 测试 单元测试
集成测试 接口 函数 参数 返回值 日志 异常 堆栈 编译 依赖 版本 升级 回滚 迁移 分支 合并 提交 代码 重构 模块 组件 文件
目录 路径 权限 认证 授权 令牌 会话 请求 响应 服务器 客户端 网络 延迟 吞吐量 分片 副本 同步 异步 回调 队列 消息 事件
调度 任务 批处理 快照 检查点 全文检索 分词 中文 排序 过滤 分页 哈希 加密 签名 校验 序列化 反序列化 解析 格式 字段 表
主键 约束 视图 连接池 句柄 指针 引用 生命周期 类型 泛型 结构体 枚举 闭包 迭代器 协程 互斥锁 读写锁 信号量 原子操作
死锁 检测 竞态条件 内存屏障 垃圾回收 线程池 负载均衡 限流 熔断 降级 监控 告警 指标 链路追踪 容器 镜像 集群 节点
主节点 从节点 选举 一致性 可用性 容错 幂等 事务隔离 脏读 幻读 乐观锁 悲观锁 索引失效 慢查询 执行计划 全表扫描
覆盖索引 前缀 后缀 三元组 倒排索引 分数 排名 相关性 向量 嵌入 模型 推理 上下文 压缩 摘要 分叉 时间戳 增量 全量 重建
写放大 页面 磁盘 构建 打包 脚本 命令行 终端 环境变量 依赖冲突 类型错误 空指针 越界 栈溢出 边界条件 回归 基准测试
火焰图 热点 瓶颈`
	.split(/\s+/)
	.filter(Boolean);

const EN_IN_ZH = [
	"SQLite",
	"FTS5",
	"WAL",
	"API",
	"JSON",
	"CI",
	"PR",
	"bug",
	"commit",
	"trigram",
	"WASM",
	"Node",
	"TypeScript",
	"Rust",
	"Go",
	"Python",
	"npm",
	"cargo",
	"pytest",
	"Docker",
	"Redis",
	"Postgres",
	"BM25",
	"token",
];

const VERBS = `get set load save read write parse format build create make resolve fetch handle process compute apply
update delete remove insert find lookup scan merge split flush sync open close start stop init reset validate check
encode decode serialize normalize render emit dispatch schedule retry acquire release commit rollback index search
rank score filter sort map reduce collect register unregister attach detach spawn drain poll watch notify refresh
hydrate evict invalidate compact migrate restore snapshot tokenize hash sign verify`
	.split(/\s+/)
	.filter(Boolean);
const NOUNS = `session index query token cache lock store state message gateway resolver handler buffer stream parser
worker pool queue router schema config client server request response event batch snapshot cursor segment shard
replica lease retry timeout hash digest bloom trie heap ledger journal wal page frame block chunk vector tensor
embedding ranker scorer tokenizer entry record row column table file path dir tree node edge graph leaf branch fork
label summary model provider usage cost budget quota window limit offset range span trace metric counter gauge
histogram alert rule policy role user account tenant org project workspace repo commit diff patch hunk build task
job step stage pipeline artifact manifest plugin extension hook listener watcher timer clock deadline context
channel signal mutex semaphore barrier latch future promise callback result error status code payload header body
frame socket peer link route endpoint proxy balancer limiter breaker backoff jitter sample window bucket slot epoch
term vote leader follower candidate log entry checkpoint manifest blob object key value pair map set list array
slice field prop attr item element widget view panel modal toast theme layout style`
	.split(/\s+/)
	.filter(Boolean);
const ADJS = `dynamic static async sync local remote global shared pending active stale dirty fresh cached lazy eager
default custom primary secondary inner outer raw safe unsafe partial full incremental concurrent parallel atomic
durable ephemeral persistent transient weak strong soft hard max min base root`
	.split(/\s+/)
	.filter(Boolean);
const ACRO = [
	"dht",
	"rpc",
	"jwt",
	"http",
	"sql",
	"fts",
	"api",
	"url",
	"uuid",
	"tcp",
	"tls",
	"dns",
	"lru",
	"wal",
	"crdt",
	"io",
	"json",
	"yaml",
	"ast",
	"cli",
	"sdk",
	"db",
	"orm",
	"csv",
	"utf8",
	"grpc",
	"oauth",
	"ws",
	"gc",
	"cpu",
];
const ACRO_SET = new Set(ACRO);
const SUFFIX = [
	"manager",
	"factory",
	"builder",
	"provider",
	"service",
	"registry",
	"adapter",
	"handler",
	"options",
	"config",
	"state",
	"error",
	"result",
	"info",
	"spec",
	"impl",
	"context",
	"kind",
	"id",
	"map",
	"set",
	"list",
];

const PROJECTS = [
	["lookback", "ts"],
	["api-gateway", "ts"],
	["billing-service", "go"],
	["kv-store", "rs"],
	["ml-pipeline", "py"],
	["web-dashboard", "ts"],
	["auth-service", "go"],
	["search-indexer", "rs"],
	["data-etl", "py"],
	["cli-tools", "rs"],
	["mobile-backend", "ts"],
	["infra-scripts", "py"],
	["chat-server", "go"],
	["pdf-renderer", "rs"],
	["recsys", "py"],
	["docs-site", "ts"],
	["payment-worker", "go"],
	["log-shipper", "rs"],
	["notebook-utils", "py"],
	["editor-plugin", "ts"],
	["scheduler", "go"],
	["wasm-sqlite", "rs"],
	["scraper", "py"],
	["design-system", "ts"],
	["metrics-agent", "go"],
	["crdt-sync", "rs"],
	["fastapi-app", "py"],
	["game-engine", "rs"],
	["graphql-api", "ts"],
	["queue-consumer", "go"],
	["tokenizer", "rs"],
	["llm-evals", "py"],
	["browser-ext", "ts"],
	["dns-resolver", "go"],
	["blog", "ts"],
	["dotfiles", "py"],
	["raft-kv", "go"],
	["image-service", "py"],
	["pi-extensions", "ts"],
	["trading-bot", "py"],
	["firmware-tools", "rs"],
	["k8s-operator", "go"],
];

const MODELS = [
	{ provider: "anthropic", api: "anthropic-messages", model: "claude-sonnet-4-5", w: 34, price: [3, 15, 0.3, 3.75], window: 200000 },
	{ provider: "anthropic", api: "anthropic-messages", model: "claude-opus-4-5", w: 14, price: [5, 25, 0.5, 6.25], window: 200000 },
	{ provider: "anthropic", api: "anthropic-messages", model: "claude-haiku-4-5", w: 5, price: [1, 5, 0.1, 1.25], window: 200000 },
	{ provider: "openai", api: "openai-responses", model: "gpt-5.1-codex", w: 16, price: [1.25, 10, 0.125, 0], window: 272000 },
	{ provider: "openai", api: "openai-responses", model: "gpt-5", w: 8, price: [1.25, 10, 0.125, 0], window: 272000 },
	{ provider: "google", api: "google-generative-ai", model: "gemini-2.5-pro", w: 9, price: [1.25, 10, 0.31, 0], window: 1048576 },
	{ provider: "openrouter", api: "openai-completions", model: "z-ai/glm-4.6", w: 6, price: [0.6, 2.2, 0.11, 0], window: 200000 },
	{ provider: "openrouter", api: "openai-completions", model: "qwen/qwen3-coder", w: 4, price: [0.4, 1.6, 0, 0], window: 262144 },
];
const THINKING = [
	["off", 25],
	["minimal", 5],
	["low", 15],
	["medium", 35],
	["high", 18],
	["xhigh", 2],
];

// ───────────────────────────────────────────── Text kit ─────────────────────────────────────────────

function cap(w) {
	return w.charAt(0).toUpperCase() + w.slice(1);
}

function buildVocab(seed) {
	const r = new Rng(seedOf("vocab", seed));
	const seen = new Set();
	const en = [];
	const add = (w) => {
		if (!seen.has(w)) {
			seen.add(w);
			en.push(w);
		}
	};
	EN_COMMON.slice(0, 60).forEach(add);
	const rest = EN_COMMON.slice(60);
	for (let i = 0; i < Math.max(rest.length, EN_TECH.length); i++) {
		if (i < rest.length) add(rest[i]);
		if (i < EN_TECH.length) add(EN_TECH[i]);
	}
	const zh = [...new Set(ZH_WORDS)];
	// identifier concepts
	const camelA = [],
		pascalA = [],
		snakeA = [],
		upperA = [],
		kebabA = [];
	const cseen = new Set();
	const N_ID = 4500;
	while (camelA.length < N_ID) {
		const f = r.next();
		let parts;
		if (f < 0.4) {
			parts = [r.pick(VERBS), r.pick(NOUNS)];
			if (r.chance(0.5)) parts.push(r.pick(NOUNS));
		} else if (f < 0.75) {
			parts = [];
			if (r.chance(0.3)) parts.push(r.chance(0.5) ? r.pick(ADJS) : r.pick(ACRO));
			parts.push(r.pick(NOUNS), r.pick(NOUNS));
			if (r.chance(0.35)) parts.push(r.pick(SUFFIX));
		} else if (f < 0.9) {
			parts = [r.pick(ACRO), r.chance(0.5) ? r.pick(ADJS) : r.pick(NOUNS)];
			if (r.chance(0.6)) parts.push(r.pick(NOUNS));
		} else {
			parts = [r.pick(ADJS), r.pick(NOUNS)];
		}
		const key = parts.join(" ");
		if (cseen.has(key) || parts[0] === parts[1]) continue;
		const pascal = parts.map((p) => (ACRO_SET.has(p) ? p.toUpperCase() : cap(p))).join("");
		const camel = (ACRO_SET.has(parts[0]) ? parts[0] : parts[0]) + pascal.slice(parts[0].length);
		const lower = (pascal + camel).toLowerCase();
		if (lower.includes("dhtdynamicresolverv2") || lower.includes("zanzibar")) continue;
		cseen.add(key);
		camelA.push(camel);
		pascalA.push(pascal);
		snakeA.push(parts.join("_"));
		upperA.push(parts.join("_").toUpperCase());
		kebabA.push(parts.join("-"));
	}
	return {
		en,
		enZ: new Zipf(en.length, 1.0),
		zh,
		zhZ: new Zipf(zh.length, 0.95),
		camelA,
		pascalA,
		snakeA,
		upperA,
		kebabA,
		idZ: new Zipf(N_ID, 1.05),
	};
}

function makeKit(V) {
	const { en, enZ, zh, zhZ, camelA, pascalA, snakeA, upperA, kebabA, idZ } = V;
	const word = (r) => en[enZ.idx(r)];
	const camel = (r) => camelA[idZ.idx(r)];
	const pascal = (r) => pascalA[idZ.idx(r)];
	const snake = (r) => snakeA[idZ.idx(r)];
	const upper = (r) => upperA[idZ.idx(r)];
	const kebab = (r) => kebabA[idZ.idx(r)];
	const ident = (r) => {
		const x = r.next();
		return x < 0.5 ? camel(r) : x < 0.85 ? pascal(r) : x < 0.93 ? upper(r) : snake(r);
	};
	const words = (r, n) => {
		let s = word(r);
		for (let i = 1; i < n; i++) s += ` ${word(r)}`;
		return s;
	};
	const sentence = (r) => {
		const n = 6 + r.int(17);
		let s = "";
		for (let i = 0; i < n; i++) {
			const x = r.next();
			let w;
			if (x < 0.05) w = `\`${x < 0.03 ? camel(r) : pascal(r)}\``;
			else if (x < 0.062) w = String(r.int(x < 0.056 ? 100 : 100000));
			else if (x < 0.07) w = upper(r);
			else w = word(r);
			if (i === 0) w = cap(w);
			s += i ? ` ${w}` : w;
			if (i > 2 && i < n - 2 && r.next() < 0.07) s += ",";
		}
		const p = r.next();
		return s + (p < 0.86 ? "." : p < 0.92 ? "?" : p < 0.97 ? ":" : "!");
	};
	const paragraph = (r, n) => {
		let s = sentence(r);
		for (let i = 1; i < n; i++) s += ` ${sentence(r)}`;
		return s;
	};
	const prose = (r, chars) => {
		const out = [];
		let len = 0;
		while (len < chars) {
			const p = paragraph(r, 1 + r.int(5));
			out.push(p);
			len += p.length + 2;
		}
		return out.join("\n\n");
	};
	const zhSentence = (r) => {
		const n = 6 + r.int(18);
		let s = "";
		for (let i = 0; i < n; i++) {
			const x = r.next();
			if (x < 0.05) s += ` \`${camel(r)}\` `;
			else if (x < 0.08) s += ` ${r.pick(EN_IN_ZH)} `;
			else s += zh[zhZ.idx(r)];
			if (i > 2 && i < n - 2 && r.next() < 0.12) s += "，";
		}
		return s.trim().replace(/ +/g, " ") + (r.next() < 0.9 ? "。" : "？");
	};
	const zhParagraph = (r, n) => {
		let s = zhSentence(r);
		for (let i = 1; i < n; i++) s += zhSentence(r);
		return s;
	};
	const zhProse = (r, chars) => {
		const out = [];
		let len = 0;
		while (len < chars) {
			const p = zhParagraph(r, 1 + r.int(4));
			out.push(p);
			len += p.length * 2 + 2; // ~3 bytes per CJK char; count roughly in "byte-ish" units
		}
		return out.join("\n\n");
	};
	return { word, camel, pascal, snake, upper, kebab, ident, words, sentence, paragraph, prose, zhSentence, zhParagraph, zhProse };
}

// ───────────────────────────────────────────── Code ─────────────────────────────────────────────

const LOG_LEVELS = ["debug", "info", "warn", "error"];
const NODE_MODS = ["fs", "path", "crypto", "os", "url", "events", "stream", "worker_threads", "child_process"];
const NPM_PKGS = [
	"zod",
	"lodash",
	"express",
	"fastify",
	"vitest",
	"esbuild",
	"typescript",
	"react",
	"pino",
	"commander",
	"chalk",
	"undici",
	"ws",
	"sql.js",
	"better-sqlite3",
	"yaml",
	"semver",
	"p-limit",
	"date-fns",
	"ioredis",
];
const PY_MODS = [
	"os",
	"json",
	"re",
	"asyncio",
	"logging",
	"dataclasses",
	"typing",
	"pathlib",
	"itertools",
	"functools",
	"collections",
	"sqlite3",
	"httpx",
	"pydantic",
	"numpy",
	"pandas",
	"torch",
	"fastapi",
	"click",
];
const PY_TYPES = ["int", "str", "float", "bool", "bytes", "list[str]", "dict[str, int]", "Optional[str]", "Sequence[int]", "Path"];
const RS_TYPES = [
	"u64",
	"usize",
	"i32",
	"String",
	"&str",
	"Vec<u8>",
	"Option<String>",
	"HashMap<String, u64>",
	"Arc<Mutex<Vec<Entry>>>",
	"bool",
	"Duration",
];
const GO_TYPES = ["int", "int64", "string", "[]byte", "bool", "time.Duration", "map[string]int", "[]string", "*Entry", "error"];

function tsLit(r, T) {
	const k = r.int(7);
	return k === 0
		? `"${T.kebab(r)}"`
		: k === 1
			? String(r.int(1000))
			: k === 2
				? T.upper(r)
				: k === 3
					? "null"
					: k === 4
						? `\`${T.word(r)}:\${${T.camel(r)}}\``
						: k === 5
							? "[]"
							: "undefined";
}
function tsStmts(r, T, L, ind, depth, n, P) {
	for (let i = 0; i < n; i++) {
		const k = r.int(depth < 2 ? 17 : 12);
		switch (k) {
			case 0:
				L.push(`${ind}const ${T.camel(r)} = await ${T.camel(r)}.${T.camel(r)}(${T.camel(r)}, ${tsLit(r, T)});`);
				break;
			case 1:
				L.push(`${ind}const ${T.camel(r)}: ${T.pascal(r)} = ${T.camel(r)}.${T.camel(r)} ?? ${tsLit(r, T)};`);
				break;
			case 2:
				L.push(`${ind}// ${P?.zhComments && r.chance(0.5) ? T.zhSentence(r) : T.sentence(r)}`);
				break;
			case 3:
				L.push(`${ind}this.${T.camel(r)} = new ${T.pascal(r)}(${T.camel(r)});`);
				break;
			case 4:
				L.push(`${ind}logger.${r.pick(LOG_LEVELS)}(\`${T.words(r, 3 + r.int(5))} \${${T.camel(r)}}\`);`);
				break;
			case 5:
				L.push(`${ind}${T.camel(r)}.set(${T.camel(r)}, (${T.camel(r)}.get(${T.camel(r)}) ?? 0) + 1);`);
				break;
			case 6:
				L.push(`${ind}const { ${T.camel(r)}, ${T.camel(r)} } = ${T.camel(r)};`);
				break;
			case 7:
				L.push(`${ind}if (!${T.camel(r)}) throw new ${T.pascal(r)}Error("${T.words(r, 4 + r.int(6))}");`);
				break;
			case 8:
				L.push(`${ind}await ${T.camel(r)}.${T.camel(r)}({ ${T.camel(r)}: ${tsLit(r, T)}, ${T.camel(r)} });`);
				break;
			case 9:
				L.push(`${ind}${T.camel(r)}.push(...${T.camel(r)}.filter((x) => x.${T.camel(r)} !== ${tsLit(r, T)}));`);
				break;
			case 10:
				L.push(`${ind}const ${T.camel(r)} = ${T.camel(r)}.length > ${T.upper(r)} ? ${T.camel(r)}.slice(0, ${T.upper(r)}) : ${T.camel(r)};`);
				break;
			case 11:
				L.push(`${ind}${T.camel(r)} = ${T.camel(r)}.map((x) => ({ ...x, ${T.camel(r)}: x.${T.camel(r)} + ${r.int(64)} }));`);
				break;
			case 12:
				L.push(`${ind}if (${T.camel(r)}.${T.camel(r)} ${r.pick(["===", "!==", ">", "<=", "&&"])} ${tsLit(r, T)}) {`);
				tsStmts(r, T, L, `${ind}  `, depth + 1, 1 + r.int(4), P);
				if (r.chance(0.3)) {
					L.push(`${ind}} else {`);
					tsStmts(r, T, L, `${ind}  `, depth + 1, 1 + r.int(3), P);
				}
				L.push(`${ind}}`);
				break;
			case 13:
				L.push(`${ind}for (const ${T.camel(r)} of ${T.camel(r)}.${T.camel(r)}()) {`);
				tsStmts(r, T, L, `${ind}  `, depth + 1, 1 + r.int(4), P);
				L.push(`${ind}}`);
				break;
			case 14:
				L.push(`${ind}try {`);
				tsStmts(r, T, L, `${ind}  `, depth + 1, 1 + r.int(4), P);
				L.push(
					`${ind}} catch (err) {`,
					`${ind}  throw new ${T.pascal(r)}Error(\`${T.words(r, 3 + r.int(4))}: \${String(err)}\`);`,
					`${ind}}`,
				);
				break;
			case 15:
				L.push(`${ind}switch (${T.camel(r)}.kind) {`);
				for (let c = 0, m = 2 + r.int(4); c < m; c++) {
					L.push(`${ind}  case "${T.kebab(r)}":`);
					tsStmts(r, T, L, `${ind}    `, depth + 1, 1 + r.int(2), P);
					L.push(`${ind}    break;`);
				}
				L.push(`${ind}}`);
				break;
			default:
				L.push(`${ind}return ${T.camel(r)}.${T.camel(r)}(${T.camel(r)});`);
		}
	}
}
function tsBlock(r, T, L, P, test) {
	const k = r.next();
	if (test) {
		L.push(`describe("${T.camel(r)}", () => {`);
		for (let i = 0, n = 1 + r.int(5); i < n; i++) {
			L.push(`  it("${T.words(r, 3 + r.int(6))}", async () => {`);
			tsStmts(r, T, L, "    ", 1, 2 + r.int(5), P);
			L.push(`    expect(${T.camel(r)}).${r.pick(["toBe", "toEqual", "toHaveLength", "toContain"])}(${tsLit(r, T)});`, "  });");
		}
		L.push("});", "");
	} else if (k < 0.15) {
		L.push(`export interface ${T.pascal(r)} {`);
		for (let i = 0, n = 2 + r.int(8); i < n; i++) {
			L.push(
				`  ${r.chance(0.2) ? `/** ${T.sentence(r)} */\n  ` : ""}${T.camel(r)}${r.chance(0.3) ? "?" : ""}: ${r.pick(["string", "number", "boolean", "string[]", T.pascal(r), `Map<string, ${T.pascal(r)}>`])};`,
			);
		}
		L.push("}", "");
	} else if (k < 0.35) {
		L.push(`export class ${T.pascal(r)}${r.chance(0.4) ? ` implements ${T.pascal(r)}` : ""} {`);
		for (let i = 0, n = 1 + r.int(4); i < n; i++) L.push(`  private ${T.camel(r)} = new Map<string, ${T.pascal(r)}>();`);
		for (let i = 0, n = 1 + r.int(4); i < n; i++) {
			L.push(
				"",
				`  ${r.chance(0.5) ? "async " : ""}${T.camel(r)}(${T.camel(r)}: ${T.pascal(r)}): ${r.pick(["void", "Promise<void>", "number", T.pascal(r)])} {`,
			);
			tsStmts(r, T, L, "    ", 0, 2 + r.int(8), P);
			L.push("  }");
		}
		L.push("}", "");
	} else {
		if (r.chance(0.4)) L.push(`/**`, ` * ${T.sentence(r)}`, ` * ${T.sentence(r)}`, ` */`);
		L.push(
			`export ${r.chance(0.5) ? "async " : ""}function ${T.camel(r)}(${T.camel(r)}: ${T.pascal(r)}, ${T.camel(r)}?: ${T.pascal(r)}): ${r.pick(["Promise<void>", "number", "string", T.pascal(r), "boolean"])} {`,
		);
		tsStmts(r, T, L, "  ", 0, 2 + r.int(10), P);
		L.push("}", "");
	}
}
function tsHeader(r, T, L) {
	for (let i = 0, n = 2 + r.int(6); i < n; i++) {
		const x = r.next();
		L.push(
			x < 0.25
				? `import * as ${r.pick(NODE_MODS).replace(/_/g, "")} from "node:${r.pick(NODE_MODS)}";`
				: x < 0.45
					? `import { ${T.camel(r)} } from "${r.pick(NPM_PKGS)}";`
					: `import { ${T.pascal(r)}, ${T.camel(r)} } from "./${T.kebab(r)}.js";`,
		);
	}
	L.push("", `const ${T.upper(r)} = ${r.int(10000)};`, "");
}

function pyLit(r, T) {
	const k = r.int(6);
	return k === 0
		? `"${T.snake(r)}"`
		: k === 1
			? String(r.int(1000))
			: k === 2
				? T.upper(r)
				: k === 3
					? "None"
					: k === 4
						? `f"${T.word(r)}-{${T.snake(r)}}"`
						: "[]";
}
function pyStmts(r, T, L, ind, depth, n, P) {
	for (let i = 0; i < n; i++) {
		const k = r.int(depth < 2 ? 13 : 9);
		switch (k) {
			case 0:
				L.push(`${ind}${T.snake(r)} = self.${T.snake(r)}.${T.snake(r)}(${T.snake(r)}, ${pyLit(r, T)})`);
				break;
			case 1:
				L.push(`${ind}# ${P?.zhComments && r.chance(0.5) ? T.zhSentence(r) : T.sentence(r)}`);
				break;
			case 2:
				L.push(`${ind}logger.${r.pick(["debug", "info", "warning"])}("${T.words(r, 3 + r.int(5))} %s", ${T.snake(r)})`);
				break;
			case 3:
				L.push(`${ind}${T.snake(r)}: ${r.pick(PY_TYPES)} = ${pyLit(r, T)}`);
				break;
			case 4:
				L.push(`${ind}${T.snake(r)}.append(${T.snake(r)})`);
				break;
			case 5:
				L.push(`${ind}${T.snake(r)} = [x.${T.snake(r)} for x in ${T.snake(r)} if x.${T.snake(r)}]`);
				break;
			case 6:
				L.push(`${ind}await self.${T.snake(r)}.${T.snake(r)}(${T.snake(r)}=${T.snake(r)})`);
				break;
			case 7:
				L.push(`${ind}raise ${T.pascal(r)}Error(f"${T.words(r, 3 + r.int(5))} {${T.snake(r)}!r}")`);
				break;
			case 8:
				L.push(`${ind}${T.snake(r)}[${T.snake(r)}] = ${T.snake(r)}.get(${T.snake(r)}, 0) + 1`);
				break;
			case 9:
				L.push(`${ind}if ${T.snake(r)} ${r.pick(["is None", "is not None", "> 0", `== ${T.upper(r)}`])}:`);
				pyStmts(r, T, L, `${ind}    `, depth + 1, 1 + r.int(3), P);
				break;
			case 10:
				L.push(`${ind}for ${T.snake(r)} in ${T.snake(r)}.${T.snake(r)}():`);
				pyStmts(r, T, L, `${ind}    `, depth + 1, 1 + r.int(4), P);
				break;
			case 11:
				L.push(`${ind}with self.${T.snake(r)}.${r.pick(["lock", "transaction", "connect", "open"])}() as ${T.snake(r)}:`);
				pyStmts(r, T, L, `${ind}    `, depth + 1, 1 + r.int(3), P);
				break;
			default:
				L.push(`${ind}try:`);
				pyStmts(r, T, L, `${ind}    `, depth + 1, 1 + r.int(3), P);
				L.push(`${ind}except ${T.pascal(r)}Error as exc:`, `${ind}    logger.warning("${T.words(r, 3)}: %s", exc)`);
		}
	}
}
function pyBlock(r, T, L, P, test) {
	if (test) {
		L.push(`def test_${T.snake(r)}(${r.chance(0.5) ? "tmp_path" : ""}):`);
		pyStmts(r, T, L, "    ", 1, 2 + r.int(5), P);
		L.push(`    assert ${T.snake(r)} == ${pyLit(r, T)}`, "", "");
	} else if (r.chance(0.35)) {
		if (r.chance(0.3)) L.push("@dataclass");
		L.push(`class ${T.pascal(r)}(${r.chance(0.5) ? T.pascal(r) : ""}):`, `    """${T.sentence(r)}"""`, "");
		for (let i = 0, n = 1 + r.int(4); i < n; i++) {
			L.push(`    ${r.chance(0.3) ? "async " : ""}def ${T.snake(r)}(self, ${T.snake(r)}: ${r.pick(PY_TYPES)}) -> ${r.pick(PY_TYPES)}:`);
			pyStmts(r, T, L, "        ", 0, 2 + r.int(7), P);
			L.push(`        return ${T.snake(r)}`, "");
		}
		L.push("");
	} else {
		L.push(`def ${T.snake(r)}(${T.snake(r)}: ${r.pick(PY_TYPES)}, ${T.snake(r)}: ${r.pick(PY_TYPES)} = None) -> ${r.pick(PY_TYPES)}:`);
		if (r.chance(0.4)) L.push(`    """${T.sentence(r)}"""`);
		pyStmts(r, T, L, "    ", 0, 2 + r.int(9), P);
		L.push(`    return ${T.snake(r)}`, "", "");
	}
}
function pyHeader(r, T, L) {
	L.push(`"""${T.sentence(r)}"""`, "", "from __future__ import annotations", "");
	for (let i = 0, n = 2 + r.int(5); i < n; i++) {
		L.push(r.chance(0.5) ? `import ${r.pick(PY_MODS)}` : `from ${r.pick(PY_MODS)} import ${T.pascal(r)}, ${T.snake(r)}`);
	}
	L.push("", "logger = logging.getLogger(__name__)", `${T.upper(r)} = ${r.int(4096)}`, "", "");
}

function rsStmts(r, T, L, ind, depth, n, P) {
	for (let i = 0; i < n; i++) {
		const k = r.int(depth < 2 ? 14 : 10);
		switch (k) {
			case 0:
				L.push(`${ind}let ${T.snake(r)} = self.${T.snake(r)}.${T.snake(r)}(&${T.snake(r)})?;`);
				break;
			case 1:
				L.push(`${ind}// ${P?.zhComments && r.chance(0.5) ? T.zhSentence(r) : T.sentence(r)}`);
				break;
			case 2:
				L.push(`${ind}let mut ${T.snake(r)}: ${r.pick(RS_TYPES)} = Default::default();`);
				break;
			case 3:
				L.push(`${ind}tracing::${r.pick(["debug", "info", "warn"])}!(${T.snake(r)} = ?${T.snake(r)}, "${T.words(r, 3 + r.int(5))}");`);
				break;
			case 4:
				L.push(`${ind}${T.snake(r)}.insert(${T.snake(r)}.clone(), ${T.snake(r)});`);
				break;
			case 5:
				L.push(`${ind}let ${T.snake(r)} = ${T.snake(r)}.lock().map_err(|e| ${T.pascal(r)}Error::Lock(e.to_string()))?;`);
				break;
			case 6:
				L.push(`${ind}self.${T.snake(r)}.push(${T.pascal(r)}::new(${T.snake(r)}, ${r.int(512)}));`);
				break;
			case 7:
				L.push(`${ind}let ${T.snake(r)} = ${T.snake(r)}.iter().filter(|x| x.${T.snake(r)} > ${r.int(100)}).count();`);
				break;
			case 8:
				L.push(`${ind}return Err(${T.pascal(r)}Error::${T.pascal(r)}(format!("${T.words(r, 3 + r.int(4))} {}", ${T.snake(r)})));`);
				break;
			case 9:
				L.push(`${ind}debug_assert!(${T.snake(r)}.len() <= ${T.upper(r)});`);
				break;
			case 10:
				L.push(`${ind}if ${T.snake(r)}.${r.pick(["is_empty()", "is_none()", "len() > 0", "is_some()"])} {`);
				rsStmts(r, T, L, `${ind}    `, depth + 1, 1 + r.int(3), P);
				L.push(`${ind}}`);
				break;
			case 11:
				L.push(`${ind}for ${T.snake(r)} in ${T.snake(r)}.iter() {`);
				rsStmts(r, T, L, `${ind}    `, depth + 1, 1 + r.int(4), P);
				L.push(`${ind}}`);
				break;
			case 12:
				L.push(`${ind}match ${T.snake(r)} {`);
				for (let c = 0, m = 2 + r.int(3); c < m; c++)
					L.push(`${ind}    ${T.pascal(r)}::${T.pascal(r)}(${T.snake(r)}) => ${T.snake(r)}.${T.snake(r)}(),`);
				L.push(`${ind}    _ => {}`, `${ind}}`);
				break;
			default:
				L.push(`${ind}let ${T.snake(r)} = ${T.snake(r)}.into_iter().map(|x| x.${T.snake(r)}).collect::<Vec<_>>();`);
		}
	}
}
function rsBlock(r, T, L, P, test) {
	const k = r.next();
	if (test) {
		L.push("#[test]", `fn ${T.snake(r)}() {`);
		rsStmts(r, T, L, "    ", 1, 2 + r.int(5), P);
		L.push(`    assert_eq!(${T.snake(r)}, ${r.int(100)});`, "}", "");
	} else if (k < 0.2) {
		L.push("#[derive(Debug, Clone, PartialEq)]", `pub struct ${T.pascal(r)} {`);
		for (let i = 0, n = 2 + r.int(6); i < n; i++) L.push(`    pub ${T.snake(r)}: ${r.pick(RS_TYPES)},`);
		L.push("}", "");
	} else if (k < 0.3) {
		L.push("#[derive(Debug, thiserror::Error)]", `pub enum ${T.pascal(r)}Error {`);
		for (let i = 0, n = 2 + r.int(5); i < n; i++) L.push(`    #[error("${T.words(r, 3 + r.int(4))}: {0}")]`, `    ${T.pascal(r)}(String),`);
		L.push("}", "");
	} else if (k < 0.6) {
		L.push(`impl ${r.chance(0.3) ? `${T.pascal(r)} for ` : ""}${T.pascal(r)} {`);
		for (let i = 0, n = 1 + r.int(4); i < n; i++) {
			if (r.chance(0.4)) L.push(`    /// ${T.sentence(r)}`);
			L.push(
				`    pub fn ${T.snake(r)}(&${r.chance(0.4) ? "mut " : ""}self, ${T.snake(r)}: ${r.pick(RS_TYPES)}) -> Result<${r.pick(RS_TYPES)}, ${T.pascal(r)}Error> {`,
			);
			rsStmts(r, T, L, "        ", 0, 2 + r.int(7), P);
			L.push(`        Ok(${T.snake(r)})`, "    }", "");
		}
		L.push("}", "");
	} else {
		if (r.chance(0.4)) L.push(`/// ${T.sentence(r)}`);
		L.push(`pub fn ${T.snake(r)}(${T.snake(r)}: ${r.pick(RS_TYPES)}) -> Result<${r.pick(RS_TYPES)}> {`);
		rsStmts(r, T, L, "    ", 0, 2 + r.int(9), P);
		L.push(`    Ok(${T.snake(r)})`, "}", "");
	}
}
function rsHeader(r, T, L) {
	L.push(`//! ${T.sentence(r)}`, "", "use std::collections::HashMap;", "use std::sync::{Arc, Mutex};");
	for (let i = 0, n = 1 + r.int(4); i < n; i++) L.push(`use crate::${T.snake(r)}::{${T.pascal(r)}, ${T.pascal(r)}};`);
	L.push("", `const ${T.upper(r)}: usize = ${r.int(65536)};`, "");
}

function goStmts(r, T, L, ind, depth, n, P, recv) {
	for (let i = 0; i < n; i++) {
		const k = r.int(depth < 2 ? 12 : 8);
		switch (k) {
			case 0:
				L.push(
					`${ind}${T.camel(r)}, err := ${recv}.${T.camel(r)}.${T.pascal(r)}(ctx, ${T.camel(r)})`,
					`${ind}if err != nil {`,
					`${ind}\treturn nil, fmt.Errorf("${T.words(r, 2 + r.int(4))}: %w", err)`,
					`${ind}}`,
				);
				break;
			case 1:
				L.push(`${ind}// ${P?.zhComments && r.chance(0.5) ? T.zhSentence(r) : T.sentence(r)}`);
				break;
			case 2:
				L.push(`${ind}${T.camel(r)} := make(map[string]${r.pick(GO_TYPES)}, ${r.int(256)})`);
				break;
			case 3:
				L.push(`${ind}log.Printf("${T.words(r, 3 + r.int(5))} %v", ${T.camel(r)})`);
				break;
			case 4:
				L.push(`${ind}${T.camel(r)} = append(${T.camel(r)}, ${T.camel(r)})`);
				break;
			case 5:
				L.push(`${ind}${recv}.mu.Lock()`, `${ind}defer ${recv}.mu.Unlock()`);
				break;
			case 6:
				L.push(`${ind}${T.camel(r)} := ${recv}.${T.camel(r)}[${T.camel(r)}]`);
				break;
			case 7:
				L.push(`${ind}atomic.AddInt64(&${recv}.${T.camel(r)}, 1)`);
				break;
			case 8:
				L.push(`${ind}for _, ${T.camel(r)} := range ${T.camel(r)} {`);
				goStmts(r, T, L, `${ind}\t`, depth + 1, 1 + r.int(4), P, recv);
				L.push(`${ind}}`);
				break;
			case 9:
				L.push(`${ind}if ${T.camel(r)} ${r.pick(["== nil", "!= nil", "> 0", '== ""'])} {`);
				goStmts(r, T, L, `${ind}\t`, depth + 1, 1 + r.int(3), P, recv);
				L.push(`${ind}}`);
				break;
			case 10:
				L.push(
					`${ind}select {`,
					`${ind}case <-ctx.Done():`,
					`${ind}\treturn nil, ctx.Err()`,
					`${ind}case ${T.camel(r)} := <-${recv}.${T.camel(r)}:`,
				);
				goStmts(r, T, L, `${ind}\t`, depth + 1, 1 + r.int(2), P, recv);
				L.push(`${ind}}`);
				break;
			default:
				L.push(`${ind}if err := ${recv}.${T.camel(r)}(ctx); err != nil {`, `${ind}\treturn nil, err`, `${ind}}`);
		}
	}
}
function goBlock(r, T, L, P, test) {
	const k = r.next();
	const recv = r.pick(["s", "c", "h", "r", "w", "m"]);
	if (test) {
		L.push(`func Test${T.pascal(r)}(t *testing.T) {`, "\tctx := context.Background()");
		goStmts(r, T, L, "\t", 1, 2 + r.int(4), P, recv);
		L.push(
			`\tif got, want := ${T.camel(r)}, ${r.int(100)}; got != want {`,
			`\t\tt.Fatalf("${T.words(r, 3)}: got %v, want %v", got, want)`,
			"\t}",
			"}",
			"",
		);
	} else if (k < 0.25) {
		L.push(`// ${T.pascal(r)} ${T.sentence(r).toLowerCase()}`, `type ${T.pascal(r)} struct {`);
		for (let i = 0, n = 2 + r.int(6); i < n; i++) L.push(`\t${T.pascal(r)} ${r.pick(GO_TYPES)} \`json:"${T.snake(r)}"\``);
		L.push("\tmu sync.Mutex", "}", "");
	} else {
		L.push(
			`func (${recv} *${T.pascal(r)}) ${T.pascal(r)}(ctx context.Context, ${T.camel(r)} ${r.pick(GO_TYPES)}) (*${T.pascal(r)}, error) {`,
		);
		goStmts(r, T, L, "\t", 0, 2 + r.int(8), P, recv);
		L.push(`\treturn &${T.pascal(r)}{}, nil`, "}", "");
	}
}
function goHeader(r, T, L, P) {
	L.push(`package ${T.snake(r).split("_")[0]}`, "", "import (", '\t"context"', '\t"fmt"', '\t"log"', '\t"sync"');
	for (let i = 0, n = r.int(3); i < n; i++) L.push(`\t"github.com/devco/${P ? P.name : "app"}/internal/${T.snake(r).split("_")[0]}"`);
	L.push(")", "", `const ${T.pascal(r)} = ${r.int(10000)}`, "");
}

const LANG = {
	ts: { header: tsHeader, block: tsBlock, stmts: (r, T, L, ind, n, P) => tsStmts(r, T, L, ind, 0, n, P), ind: "  ", fence: "ts" },
	py: { header: pyHeader, block: pyBlock, stmts: (r, T, L, ind, n, P) => pyStmts(r, T, L, ind, 0, n, P), ind: "    ", fence: "python" },
	rs: { header: rsHeader, block: rsBlock, stmts: (r, T, L, ind, n, P) => rsStmts(r, T, L, ind, 0, n, P), ind: "    ", fence: "rust" },
	go: { header: goHeader, block: goBlock, stmts: (r, T, L, ind, n, P) => goStmts(r, T, L, ind, 0, n, P, "s"), ind: "\t", fence: "go" },
};

function genCode(lang, r, T, target, P, test = false) {
	const G = LANG[lang];
	const L = [];
	G.header(r, T, L, P);
	let size = 0;
	for (const l of L) size += l.length + 1;
	while (size < target) {
		const from = L.length;
		G.block(r, T, L, P, test);
		for (let i = from; i < L.length; i++) size += L[i].length + 1;
	}
	return L.join("\n");
}
function codeSnippet(lang, r, T, nStmts, P) {
	const L = [];
	const G = LANG[lang];
	if (r.chance(0.5)) {
		G.block(r, T, L, P, false);
		while (L.length && L[L.length - 1] === "") L.pop();
	} else G.stmts(r, T, L, G.ind, nStmts, P);
	return L.join("\n");
}

function genConfig(p, r, T, P) {
	const base = p.slice(p.lastIndexOf("/") + 1);
	if (base === "package.json") {
		const deps = {};
		for (let i = 0, n = 2 + r.int(10); i < n; i++) deps[r.pick(NPM_PKGS)] = `^${r.int(12)}.${r.int(30)}.${r.int(20)}`;
		return JSON.stringify(
			{
				name: P.name,
				version: `0.${r.int(20)}.${r.int(10)}`,
				type: "module",
				scripts: { build: "tsc -p .", test: "vitest run", lint: "eslint ." },
				dependencies: deps,
				devDependencies: { typescript: "^5.9.3", vitest: "^4.1.12" },
			},
			null,
			2,
		);
	}
	if (base === "tsconfig.json")
		return JSON.stringify(
			{ compilerOptions: { target: "ES2022", module: "NodeNext", strict: true, outDir: "dist", declaration: true }, include: ["src"] },
			null,
			2,
		);
	if (base === "Cargo.toml")
		return `[package]\nname = "${P.name}"\nversion = "0.${r.int(20)}.0"\nedition = "2021"\n\n[dependencies]\nserde = { version = "1", features = ["derive"] }\ntokio = { version = "1", features = ["full"] }\nthiserror = "1"\ntracing = "0.1"\n`;
	if (base === "pyproject.toml")
		return `[project]\nname = "${P.name}"\nversion = "0.${r.int(20)}.0"\nrequires-python = ">=3.11"\ndependencies = ["httpx", "pydantic>=2", "click"]\n\n[tool.pytest.ini_options]\naddopts = "-q"\n`;
	if (base === "go.mod")
		return `module github.com/devco/${P.name}\n\ngo 1.22\n\nrequire (\n\tgithub.com/stretchr/testify v1.9.0\n\tgolang.org/x/sync v0.7.0\n)\n`;
	// markdown
	const out = [`# ${P.name}`, "", T.paragraph(r, 3)];
	for (let i = 0, n = 2 + r.int(5); i < n; i++) {
		out.push(
			"",
			`## ${cap(T.words(r, 2 + r.int(3)))}`,
			"",
			P.zhComments && r.chance(0.4) ? T.zhParagraph(r, 3) : T.paragraph(r, 2 + r.int(4)),
		);
		if (r.chance(0.5)) out.push("", `\`\`\`${LANG[P.lang].fence}`, codeSnippet(P.lang, r, T, 4, P), "```");
	}
	return out.join("\n");
}

// ─────────────────────────────────────────── Projects ───────────────────────────────────────────

function buildProject(name, lang, G) {
	const r = new Rng(seedOf(G.seed, "project", name));
	const T = G.T;
	const files = [];
	const src = [];
	const tests = [];
	const subs = [...new Set(Array.from({ length: 2 + r.int(5) }, () => r.pick(NOUNS)))];
	const uniq = new Set();
	const add = (p, kind) => {
		if (uniq.has(p)) return;
		uniq.add(p);
		files.push(p);
		if (kind === "src") src.push(p);
		if (kind === "test") tests.push(p);
	};
	add("README.md");
	if (lang === "ts") {
		add("package.json");
		add("tsconfig.json");
		add("src/index.ts", "src");
		for (const s of subs) for (let i = 0, n = 3 + r.int(12); i < n; i++) add(`src/${s}/${T.kebab(r)}.ts`, "src");
		for (let i = 0, n = 4 + r.int(16); i < n; i++) add(`test/${T.kebab(r)}.test.ts`, "test");
		for (let i = 0, n = 1 + r.int(3); i < n; i++) add(`scripts/${T.kebab(r)}.mjs`, "src");
	} else if (lang === "py") {
		const pkg = name.replace(/-/g, "_");
		add("pyproject.toml");
		add(`${pkg}/__init__.py`, "src");
		for (const s of subs) for (let i = 0, n = 3 + r.int(12); i < n; i++) add(`${pkg}/${s}/${T.snake(r)}.py`, "src");
		for (let i = 0, n = 4 + r.int(16); i < n; i++) add(`tests/test_${T.snake(r)}.py`, "test");
	} else if (lang === "rs") {
		add("Cargo.toml");
		add("src/lib.rs", "src");
		add("src/main.rs", "src");
		for (const s of subs) {
			add(`src/${s}/mod.rs`, "src");
			for (let i = 0, n = 3 + r.int(10); i < n; i++) add(`src/${s}/${T.snake(r)}.rs`, "src");
		}
		for (let i = 0, n = 2 + r.int(8); i < n; i++) add(`tests/${T.snake(r)}.rs`, "test");
	} else {
		add("go.mod");
		add(`cmd/${name}/main.go`, "src");
		for (const s of subs) {
			for (let i = 0, n = 3 + r.int(10); i < n; i++) {
				const b = T.snake(r);
				add(`internal/${s}/${b}.go`, "src");
				if (r.chance(0.6)) add(`internal/${s}/${b}_test.go`, "test");
			}
		}
	}
	files.sort();
	const cwd = `${HOME}/${name}`;
	return {
		name,
		lang,
		cwd,
		dirName: `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`,
		files,
		src,
		tests,
		subs,
		zhComments: r.chance(0.15),
		ompDir: `-${cwd.slice(HOME.length + 1).replace(/[/\\:]/g, "-")}`,
	};
}

function langOf(p) {
	if (p.endsWith(".ts") || p.endsWith(".mjs")) return "ts";
	if (p.endsWith(".py")) return "py";
	if (p.endsWith(".rs")) return "rs";
	if (p.endsWith(".go")) return "go";
	return null;
}

/** Deterministic file content for (project, path, version); cached. */
function fileContent(G, P, p, ver) {
	const key = `${P.name}|${p}|${ver}`;
	let c = G.fileCache.get(key);
	if (c !== undefined) return c;
	const r = new Rng(seedOf(G.seed, "file", key));
	const lang = langOf(p);
	if (lang) {
		const size = Math.min(140000, Math.max(400, r.logn(7000, 0.95)));
		c = genCode(lang, r, G.T, size, P, /test|_test\.go$/.test(p));
	} else c = genConfig(p, r, G.T, P);
	if (G.fileCache.size > 600) G.fileCache.clear();
	G.fileCache.set(key, c);
	return c;
}

// ────────────────────────────────────── Tool output helpers ──────────────────────────────────────

const byteLen = (s) => Buffer.byteLength(s, "utf8");

function formatSize(bytes) {
	if (bytes < 1024) return `${bytes}B`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
	return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

/** pi's truncateHead (read tool). */
function truncHead(text) {
	const totalBytes = byteLen(text);
	const lines = text.split("\n");
	if (lines.length <= MAX_LINES && totalBytes <= MAX_BYTES) return null;
	const out = [];
	let bytes = 0;
	let by = "lines";
	for (let i = 0; i < lines.length && i < MAX_LINES; i++) {
		const lb = byteLen(lines[i]) + (i > 0 ? 1 : 0);
		if (bytes + lb > MAX_BYTES) {
			by = "bytes";
			break;
		}
		out.push(lines[i]);
		bytes += lb;
	}
	const content = out.join("\n");
	return {
		content,
		truncated: true,
		truncatedBy: by,
		totalLines: lines.length,
		totalBytes,
		outputLines: out.length,
		outputBytes: byteLen(content),
		lastLinePartial: false,
		firstLineExceedsLimit: false,
		maxLines: MAX_LINES,
		maxBytes: MAX_BYTES,
	};
}
/** pi's truncateTail (bash tool). */
function truncTail(text) {
	const totalBytes = byteLen(text);
	const lines = text.split("\n");
	if (lines.length <= MAX_LINES && totalBytes <= MAX_BYTES) return null;
	const out = [];
	let bytes = 0;
	let by = "lines";
	for (let i = lines.length - 1; i >= 0 && out.length < MAX_LINES; i--) {
		const lb = byteLen(lines[i]) + (out.length > 0 ? 1 : 0);
		if (bytes + lb > MAX_BYTES) {
			by = "bytes";
			break;
		}
		out.push(lines[i]);
		bytes += lb;
	}
	out.reverse();
	const content = out.join("\n");
	return {
		content,
		truncated: true,
		truncatedBy: by,
		totalLines: lines.length,
		totalBytes,
		outputLines: out.length,
		outputBytes: byteLen(content),
		lastLinePartial: false,
		firstLineExceedsLimit: false,
		maxLines: MAX_LINES,
		maxBytes: MAX_BYTES,
	};
}

const NODE_ERRORS = [
	(T, r) => `TypeError: Cannot read properties of undefined (reading '${T.camel(r)}')`,
	(T, r) => `TypeError: ${T.camel(r)}.${T.camel(r)} is not a function`,
	(T, r) => `ReferenceError: ${T.camel(r)} is not defined`,
	(T, r) => `RangeError: Maximum call stack size exceeded`,
	(T, r) => `Error: SQLITE_BUSY: database is locked`,
	(T, r) => `Error: ENOENT: no such file or directory, open '/home/dev/${T.kebab(r)}/${T.kebab(r)}.json'`,
	(T, r) => `Error: connect ECONNREFUSED 127.0.0.1:${r.pick([5432, 6379, 8080, 3000, 9200])}`,
	(T, r) => `Error: listen EADDRINUSE: address already in use :::${r.pick([3000, 8080, 5173])}`,
	(T, r) => `SyntaxError: Unexpected token '}' in JSON at position ${r.int(5000)}`,
	(T, r) => `${T.pascal(r)}Error: ${T.words(r, 4 + r.int(6))}`,
	(T, r) => `AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n\n${r.int(100)} !== ${r.int(100)}\n`,
	(T, r) =>
		`Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/home/dev/${T.kebab(r)}/dist/${T.kebab(r)}.js' imported from /home/dev/${T.kebab(r)}/src/index.ts`,
];
const PY_ERRORS = [
	(T, r) => `KeyError: '${T.snake(r)}'`,
	(T, r) => `AttributeError: '${T.pascal(r)}' object has no attribute '${T.snake(r)}'`,
	(T, r) => `ModuleNotFoundError: No module named '${T.snake(r)}'`,
	(T, r) => `ValueError: invalid literal for int() with base 10: '${T.word(r)}'`,
	(T, r) => `sqlite3.OperationalError: database is locked`,
	(T, r) => `TypeError: ${T.snake(r)}() got an unexpected keyword argument '${T.snake(r)}'`,
	(T, r) => `AssertionError: assert ${r.int(100)} == ${r.int(100)}`,
	(T, r) => `RuntimeError: ${T.words(r, 4 + r.int(5))}`,
];
const RS_ERRORS = [
	(T, r) => `called \`Option::unwrap()\` on a \`None\` value`,
	(T, r) => `called \`Result::unwrap()\` on an \`Err\` value: ${T.pascal(r)}("${T.words(r, 3)}")`,
	(T, r) => `index out of bounds: the len is ${r.int(10)} but the index is ${10 + r.int(10)}`,
	(T, r) => `assertion \`left == right\` failed\n  left: ${r.int(100)}\n right: ${r.int(100)}`,
	(T, r) => `already borrowed: BorrowMutError`,
];
const GO_ERRORS = [
	(T, r) => `runtime error: invalid memory address or nil pointer dereference`,
	(T, r) => `fatal error: all goroutines are asleep - deadlock!`,
	(T, r) => `context deadline exceeded`,
	(T, r) => `runtime error: index out of range [${r.int(10) + 5}] with length ${r.int(5)}`,
	(T, r) => `${T.camel(r)}: ${T.words(r, 3 + r.int(4))}`,
];
function errorLine(lang, r, T) {
	const pool = lang === "py" ? PY_ERRORS : lang === "rs" ? RS_ERRORS : lang === "go" ? GO_ERRORS : NODE_ERRORS;
	return r.pick(pool)(T, r);
}

function srcFile(r, P) {
	return P.src.length ? r.pick(P.src) : r.pick(P.files);
}
function testFile(r, P) {
	return P.tests.length ? r.pick(P.tests) : srcFile(r, P);
}

function stackTrace(lang, r, T, P, err) {
	const L = [];
	const n = 3 + r.int(9);
	if (lang === "py") {
		L.push("Traceback (most recent call last):");
		for (let i = 0; i < n; i++) {
			L.push(`  File "${P.cwd}/${srcFile(r, P)}", line ${1 + r.int(600)}, in ${T.snake(r)}`);
			const sl = [];
			pyStmts(r, T, sl, "    ", 2, 1, P);
			L.push(sl[0]);
		}
		L.push(err);
	} else if (lang === "rs") {
		L.push(
			`thread '${r.chance(0.5) ? "main" : `tests::${T.snake(r)}`}' panicked at ${srcFile(r, P)}:${1 + r.int(500)}:${1 + r.int(40)}:`,
			err,
			"stack backtrace:",
		);
		for (let i = 0; i < n; i++) {
			L.push(
				`  ${String(i).padStart(2)}: ${P.name.replace(/-/g, "_")}::${T.snake(r)}::${T.snake(r)}`,
				`             at ./${srcFile(r, P)}:${1 + r.int(500)}:${1 + r.int(40)}`,
			);
		}
		L.push("note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.");
	} else if (lang === "go") {
		L.push(`panic: ${err}`, "", `goroutine ${1 + r.int(200)} [running]:`);
		for (let i = 0; i < n; i++) {
			L.push(
				`github.com/devco/${P.name}/internal/${r.pick(P.subs)}.(*${T.pascal(r)}).${T.pascal(r)}(0xc000${r.hex(6)}, {0x${r.hex(6)}, 0xc000${r.hex(6)}})`,
				`\t${P.cwd}/${srcFile(r, P)}:${1 + r.int(500)} +0x${r.hex(3)}`,
			);
		}
		L.push(`exit status 2`);
	} else {
		L.push(err);
		for (let i = 0; i < n; i++) {
			const f = `${P.cwd}/${srcFile(r, P)}:${1 + r.int(800)}:${1 + r.int(60)}`;
			L.push(
				r.chance(0.7) ? `    at ${r.chance(0.4) ? "async " : ""}${T.pascal(r)}.${T.camel(r)} (file://${f})` : `    at ${T.camel(r)} (${f})`,
			);
		}
		L.push("    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)");
	}
	return L.join("\n");
}

function testLog(r, T, P, fail, size) {
	const L = [];
	const lang = P.lang;
	const nFiles = Math.max(1, Math.round(size / 400));
	let passed = 0;
	let failed = 0;
	const failures = [];
	if (lang === "ts") {
		L.push(` RUN  v4.1.12 ${P.cwd}`, "");
		for (let i = 0; i < nFiles; i++) {
			const f = testFile(r, P);
			const n = 1 + r.int(30);
			const bad = fail && r.chance(0.2) ? 1 + r.int(Math.min(3, n)) : 0;
			passed += n - bad;
			failed += bad;
			if (bad) {
				L.push(` ❯ ${f} (${n} tests | ${bad} failed) ${r.int(900)}ms`);
				for (let j = 0; j < bad; j++) {
					const name = `${T.camel(r)} > ${T.words(r, 3 + r.int(5))}`;
					L.push(`   × ${name} ${r.int(200)}ms`, `     → ${errorLine(lang, r, T).split("\n")[0]}`);
					failures.push([f, name]);
				}
			} else L.push(` ✓ ${f} (${n} tests) ${r.int(400)}ms`);
		}
		if (failures.length) {
			L.push("", `⎯⎯⎯⎯⎯⎯⎯ Failed Tests ${failures.length} ⎯⎯⎯⎯⎯⎯⎯`, "");
			let fi = 0;
			for (const [f, name] of failures) {
				const a = r.int(100),
					b = r.int(100);
				L.push(
					` FAIL  ${f} > ${name}`,
					r.chance(0.5) ? `AssertionError: expected ${a} to be ${b} // Object.is equality` : errorLine(lang, r, T),
					"",
					"- Expected",
					"+ Received",
					"",
					`- ${b}`,
					`+ ${a}`,
					"",
					` ❯ ${f}:${10 + r.int(300)}:${1 + r.int(40)}`,
				);
				const sl = [];
				tsStmts(r, T, sl, "    ", 2, 3, P);
				let ln = 10 + r.int(300);
				for (const s of sl.slice(0, 4)) L.push(`    ${ln++}| ${s.trim()}`);
				L.push(`       |              ^`, "", `⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[${++fi}/${failures.length}]⎯`, "");
			}
		}
		L.push(
			"",
			` Test Files  ${failed ? `${failures.length} failed | ` : ""}${nFiles} passed (${nFiles})`,
			`      Tests  ${failed ? `${failed} failed | ` : ""}${passed} passed (${passed + failed})`,
			`   Start at  ${String(r.int(24)).padStart(2, "0")}:${String(r.int(60)).padStart(2, "0")}:${String(r.int(60)).padStart(2, "0")}`,
			`   Duration  ${(1 + r.next() * 20).toFixed(2)}s (transform ${r.int(900)}ms, setup 0ms, collect ${r.int(3000)}ms, tests ${r.int(9000)}ms, environment ${r.int(10)}ms, prepare ${r.int(900)}ms)`,
		);
	} else if (lang === "py") {
		L.push(
			`============================= test session starts ==============================`,
			`platform linux -- Python 3.12.${r.int(8)}, pytest-8.3.${r.int(5)}, pluggy-1.5.0`,
			`rootdir: ${P.cwd}`,
			`configfile: pyproject.toml`,
			`collected ${nFiles * 8} items`,
			"",
		);
		for (let i = 0; i < nFiles; i++) {
			const f = testFile(r, P);
			const n = 1 + r.int(20);
			let dots = "";
			for (let j = 0; j < n; j++) {
				if (fail && r.chance(0.04)) {
					dots += "F";
					failed++;
					failures.push([f, `test_${T.snake(r)}`]);
				} else {
					dots += ".";
					passed++;
				}
			}
			L.push(
				`${f} ${dots}${" ".repeat(Math.max(1, 50 - f.length - dots.length))}[${String(Math.min(100, Math.round(((i + 1) / nFiles) * 100))).padStart(3)}%]`,
			);
		}
		if (failures.length) {
			L.push("", "=================================== FAILURES ===================================");
			for (const [f, name] of failures) {
				L.push(`_${"_".repeat(20)} ${name} ${"_".repeat(20)}`, "");
				const sl = [];
				pyStmts(r, T, sl, "    ", 2, 4, P);
				L.push(
					...sl.slice(0, 6),
					">       assert result == expected",
					`E       ${errorLine("py", r, T)}`,
					"",
					`${f}:${1 + r.int(300)}: AssertionError`,
				);
				if (r.chance(0.4))
					L.push(
						"----------------------------- Captured log call ------------------------------",
						`WARNING  ${P.name.replace(/-/g, "_")}.${T.snake(r)}:${T.snake(r)}.py:${r.int(300)} ${T.sentence(r)}`,
					);
			}
			L.push("=========================== short test summary info ============================");
			for (const [f, name] of failures) L.push(`FAILED ${f}::${name} - ${errorLine("py", r, T).split("\n")[0]}`);
		}
		L.push(`${"=".repeat(20)} ${failed ? `${failed} failed, ` : ""}${passed} passed in ${(r.next() * 30).toFixed(2)}s ${"=".repeat(20)}`);
	} else if (lang === "rs") {
		L.push(
			`   Compiling ${P.name} v0.${r.int(9)}.0 (${P.cwd})`,
			`    Finished \`test\` profile [unoptimized + debuginfo] target(s) in ${(r.next() * 40).toFixed(2)}s`,
			`     Running unittests src/lib.rs (target/debug/deps/${P.name.replace(/-/g, "_")}-${r.hex(16)})`,
			"",
			`running ${nFiles * 6} tests`,
		);
		for (let i = 0; i < nFiles * 6; i++) {
			const name = `${r.pick(P.subs)}::${T.snake(r)}::tests::${T.snake(r)}`;
			if (fail && r.chance(0.03)) {
				L.push(`test ${name} ... FAILED`);
				failed++;
				failures.push(["", name]);
			} else {
				L.push(`test ${name} ... ok`);
				passed++;
			}
		}
		if (failures.length) {
			L.push("", "failures:", "");
			for (const [, name] of failures) L.push(`---- ${name} stdout ----`, stackTrace("rs", r, T, P, errorLine("rs", r, T)), "");
			L.push("failures:", ...failures.map(([, n]) => `    ${n}`), "");
		}
		L.push(
			`test result: ${failed ? "FAILED" : "ok"}. ${passed} passed; ${failed} failed; 0 ignored; 0 measured; 0 filtered out; finished in ${(r.next() * 5).toFixed(2)}s`,
		);
		if (failed) L.push("", "error: test failed, to rerun pass `--lib`");
	} else {
		for (let i = 0; i < nFiles; i++) {
			const pkg = `github.com/devco/${P.name}/internal/${r.pick(P.subs)}`;
			const verbose = r.chance(0.3);
			let pkgFail = false;
			for (let j = 0, n = verbose ? 2 + r.int(8) : 0; j < n; j++) {
				const tn = `Test${T.pascal(r)}`;
				L.push(`=== RUN   ${tn}`);
				if (fail && r.chance(0.06)) {
					L.push(`    ${T.snake(r)}_test.go:${r.int(300)}: ${errorLine("go", r, T)}`, `--- FAIL: ${tn} (0.0${r.int(9)}s)`);
					pkgFail = true;
					failed++;
				} else {
					L.push(`--- PASS: ${tn} (0.0${r.int(9)}s)`);
					passed++;
				}
			}
			L.push(pkgFail ? `FAIL\t${pkg}\t0.${r.int(999)}s` : `ok  \t${pkg}\t0.${r.int(999)}s`);
		}
		if (failed) L.push("FAIL");
	}
	return { text: L.join("\n"), failed: failed > 0 };
}

function buildErrors(r, T, P, n) {
	const L = [];
	for (let i = 0; i < n; i++) {
		const f = srcFile(r, P);
		const line = 1 + r.int(500),
			col = 1 + r.int(60);
		if (P.lang === "ts") {
			L.push(
				r.pick([
					`${f}(${line},${col}): error TS2345: Argument of type '${r.pick(["string", "number", "undefined", T.pascal(r)])}' is not assignable to parameter of type '${T.pascal(r)}'.`,
					`${f}(${line},${col}): error TS2339: Property '${T.camel(r)}' does not exist on type '${T.pascal(r)}'.`,
					`${f}(${line},${col}): error TS2304: Cannot find name '${T.camel(r)}'.`,
					`${f}(${line},${col}): error TS7006: Parameter '${T.camel(r)}' implicitly has an 'any' type.`,
					`${f}(${line},${col}): error TS2322: Type '${T.pascal(r)} | undefined' is not assignable to type '${T.pascal(r)}'.`,
				]),
			);
		} else if (P.lang === "py") {
			L.push(
				r.pick([
					`${f}:${line}: error: Incompatible types in assignment (expression has type "${r.pick(PY_TYPES)}", variable has type "${r.pick(PY_TYPES)}")  [assignment]`,
					`${f}:${line}: error: "${T.pascal(r)}" has no attribute "${T.snake(r)}"  [attr-defined]`,
					`${f}:${line}:${col}: F401 [*] \`${T.snake(r)}\` imported but unused`,
					`${f}:${line}:${col}: E501 Line too long (${100 + r.int(60)} > 100)`,
				]),
			);
		} else if (P.lang === "rs") {
			const v = T.snake(r);
			L.push(
				r.pick([
					`error[E0502]: cannot borrow \`${v}\` as mutable because it is also borrowed as immutable\n  --> ${f}:${line}:${col}\n   |\n${line - 2} |     let first = &${v}[0];\n   |                  - immutable borrow occurs here\n${line} |     ${v}.push(${T.snake(r)});\n   |     ^^^^^^^^^^^^^^^^^^^ mutable borrow occurs here\n${line + 1} |     println!("{}", first);\n   |                    ----- immutable borrow later used here\n`,
					`error[E0308]: mismatched types\n  --> ${f}:${line}:${col}\n   |\n${line} |     ${v}\n   |     ^^^ expected \`${r.pick(RS_TYPES)}\`, found \`${r.pick(RS_TYPES)}\`\n`,
					`error[E0425]: cannot find value \`${v}\` in this scope\n  --> ${f}:${line}:${col}\n   |\n${line} |     let x = ${v};\n   |             ^^^ not found in this scope\n`,
					`warning: unused variable: \`${v}\`\n  --> ${f}:${line}:${col}\n   |\n${line} |     let ${v} = 0;\n   |         ^^^ help: if this is intentional, prefix it with an underscore: \`_${v}\`\n`,
				]),
			);
		} else {
			L.push(
				r.pick([
					`${f}:${line}:${col}: undefined: ${T.camel(r)}`,
					`${f}:${line}:${col}: cannot use ${T.camel(r)} (variable of type ${r.pick(GO_TYPES)}) as ${r.pick(GO_TYPES)} value in argument to ${T.pascal(r)}`,
					`${f}:${line}:${col}: ${T.camel(r)} declared and not used`,
				]),
			);
		}
	}
	if (P.lang === "rs") L.push(`error: could not compile \`${P.name}\` (lib) due to ${n} previous errors`);
	if (P.lang === "ts") L.push("", `Found ${n} errors in ${Math.max(1, n - r.int(n))} files.`);
	return L.join("\n");
}

function gitDiff(G, S, r, nFiles) {
	const P = S.P,
		T = G.T;
	const L = [];
	for (let i = 0; i < nFiles; i++) {
		const f = srcFile(r, P);
		const lines = fileContent(G, P, f, S.ver).split("\n");
		L.push(`diff --git a/${f} b/${f}`, `index ${r.hex(7)}..${r.hex(7)} 100644`, `--- a/${f}`, `+++ b/${f}`);
		for (let h = 0, nh = 1 + r.int(4); h < nh; h++) {
			const start = r.int(Math.max(1, lines.length - 12));
			const ctx = lines.slice(start, start + 3);
			const del = lines.slice(start + 3, start + 3 + r.int(6));
			const add = [];
			LANG[P.lang].stmts(r, T, add, LANG[P.lang].ind, 1 + r.int(4), P);
			const after = lines.slice(start + 3 + del.length, start + 6 + del.length);
			L.push(
				`@@ -${start + 1},${ctx.length + del.length + after.length} +${start + 1},${ctx.length + add.length + after.length} @@ ${T.camel(r)}`,
			);
			for (const x of ctx) L.push(` ${x}`);
			for (const x of del) L.push(`-${x}`);
			for (const x of add) L.push(`+${x}`);
			for (const x of after) L.push(` ${x}`);
		}
	}
	return L.join("\n");
}

function editDiff(oldLines, newLines, firstLine, before, after) {
	const maxLine = firstLine + Math.max(oldLines.length, newLines.length) + after.length + 1;
	const w = String(maxLine).length;
	const out = [];
	let ln = firstLine - before.length;
	for (const l of before) out.push(` ${String(ln++).padStart(w)} ${l}`);
	let o = firstLine,
		n = firstLine;
	for (const l of oldLines) out.push(`-${String(o++).padStart(w)} ${l}`);
	for (const l of newLines) out.push(`+${String(n++).padStart(w)} ${l}`);
	for (const l of after) out.push(` ${String(o++).padStart(w)} ${l}`);
	return out.join("\n");
}

function lsLong(r, T, P, dir) {
	const L = [`total ${8 + r.int(200)}`];
	const months = ["Jun", "Jul", "Aug", "Sep", "Oct", "Nov"];
	const names = [
		".",
		"..",
		...new Set(P.files.filter((f) => f.startsWith(dir ? `${dir}/` : "")).map((f) => f.slice(dir ? dir.length + 1 : 0).split("/")[0])),
	];
	for (const n of names.slice(0, 80)) {
		const isDir = n === "." || n === ".." || !n.includes(".");
		L.push(
			`${isDir ? "drwxr-xr-x" : "-rw-r--r--"} ${String(1 + r.int(9)).padStart(2)} dev dev ${String(isDir ? 4096 : r.int(60000)).padStart(6)} ${r.pick(months)} ${String(1 + r.int(28)).padStart(2)} ${String(r.int(24)).padStart(2, "0")}:${String(r.int(60)).padStart(2, "0")} ${n}`,
		);
	}
	return L.join("\n");
}

// ─────────────────────────────────────────── Sessions ───────────────────────────────────────────

function isoOf(t) {
	return new Date(t).toISOString();
}
function uuidv7(r, t) {
	const h = Math.floor(t).toString(16).padStart(12, "0");
	const v = (8 + r.int(4)).toString(16);
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-7${r.hex(3)}-${v}${r.hex(3)}-${r.hex(12)}`;
}

const SKILLS = ["code-review", "commit", "debug-flaky-test", "perf-profile", "sqlite-tuning", "release-notes"];
const LABELS = ["checkpoint", "before-refactor", "good-state", "wip", "bisect-start", "known-good", "回滚点", "try-2"];
const CUSTOM_TYPES = ["git-context", "todo-reminder", "lookback-results", "ci-status"];
const TOOL_W = [
	["read", 34],
	["bash", 25],
	["edit", 19],
	["grep", 7],
	["write", 5],
	["ls", 4],
	["find", 4],
];
// omp sub-agent kinds: [kind, weight, tools]
const SUB_KINDS = [
	["explore", 42, ["read", "grep", "find", "ls"]],
	["fix", 18, ["read", "grep", "edit", "bash"]],
	["review", 12, ["read", "grep", "bash"]],
	["test", 10, ["read", "bash", "edit"]],
	["plan", 10, ["read", "grep", "find"]],
	["docs", 8, ["read", "grep", "write"]],
];
const AGENT_COUNTS = [
	[1, 8],
	[2, 10],
	[3, 12],
	[4, 14],
	[5, 14],
	[6, 14],
	[7, 13],
	[8, 15],
]; // agents per task call, mean ~4.9
const DEV_NOTES = [
	"<system-reminder>Plan mode is active. Do not edit files until the user approves the plan.</system-reminder>",
	"<system-reminder>The todo list has open items; keep it up to date.</system-reminder>",
	"<system-reminder>Context is getting large; prefer targeted reads (offset/limit) over whole files.</system-reminder>",
	"<system-reminder>The user edited files outside the session since your last turn.</system-reminder>",
];

class Session {
	/** `seedKey`/`sub`: an omp sub-agent transcript of session i (see runSub). */
	constructor(G, i, seedKey, sub = false) {
		this.G = G;
		this.i = i;
		const r = (this.r = new Rng(seedKey ?? seedOf(G.seed, "session", i)));
		this.P = G.projects[G.projZ.idx(r)];
		this.target = Math.min(MAX_TARGET, Math.max(1500, r.logn(110e3, 1.55)));
		this.t = Math.floor(END_MS - WINDOW_MS + r.next() * (WINDOW_MS - 4 * DAY));
		this.zh = r.chance(ZH_SESSION_P);
		this.model = r.weighted(MODELS.map((m) => [m, m.w]));
		this.thinking = r.weighted(THINKING);
		this.wantFork = r.chance(0.06);
		this.wantBranch = r.chance(0.125);
		this.wantLabel = r.chance(0.06);
		this.wantName = r.chance(0.22);
		this.wantCustomMsg = r.chance(0.07);
		this.wantCustom = r.chance(0.05);
		this.manualCompactTurn = r.chance(0.015) ? 1 + r.int(4) : -1;
		this.modelChangeTurn = r.chance(0.08) ? 1 + r.int(5) : -1;
		this.lines = [];
		this.meta = []; // per line: {id, parentId, type, role, t, ctx, bytes, kind, mk}
		this.ids = new Set();
		this.leaf = null;
		this.bytes = 0;
		this.ctx = 0;
		this.lastCallCtx = 0;
		this.compactions = 0;
		this.branched = false;
		this.readFiles = new Set();
		this.modifiedFiles = new Set();
		this.subBytes = 0; // bytes of this session's sub-agent files (omp)
		this.hdr = 1; // lines before the first entry
		if (G.omp) this.ompInit(seedKey, sub);
	}

	/** omp-only decisions, drawn from their own stream `this.o`. */
	ompInit(seedKey, sub) {
		const o = (this.o = new Rng(seedOf(this.G.seed, "omp", this.i, seedKey ?? "")));
		this.hdr = 2;
		this.isSub = sub;
		this.title = "";
		this.titleSource = "auto";
		this.subs = [];
		this.agentN = {};
		this.taskCalls = 0;
		if (sub) return;
		this.wantTitle = o.chance(0.7);
		this.renameTurn = o.chance(0.12) ? 1 + o.int(4) : -1;
		// ~5%: every ~15th session by a golden-ratio sequence (evenly spread), if older than 45 days
		this.archived = this.t < END_MS - 45 * DAY && (this.i * 0.6180339887498949) % 1 < 0.066;
		this.wantTask = !this.archived && o.chance(0.42); // ~40% of all sessions
		this.taskP = 0.5; // chance that a later tool step is another task call …
		this.maxTasks = 3 + o.int(4); // … up to 3–6 calls a session
		if (this.wantTask) this.target = Math.min(MAX_TARGET, this.target + this.maxTasks * 25e3); // room for the agents' transcripts
	}

	/** Whether the session (with its sub-agents) has reached its size target. */
	full() {
		return this.bytes + this.subBytes >= this.target;
	}

	get ver() {
		return Math.floor(this.startMs / (7 * DAY));
	}

	newId() {
		let id;
		do id = this.r.hex(8);
		while (this.ids.has(id));
		this.ids.add(id);
		return id;
	}

	push(line, kind, m) {
		const b = byteLen(line) + 1;
		this.lines.push(line);
		this.bytes += b;
		m.bytes = b;
		m.kind = kind;
		this.meta.push(m);
		const st = this.G.stats;
		st.byKind[kind] = (st.byKind[kind] || 0) + b;
	}

	/** Append an entry; `build(id, parentId, ts)` returns the object (key order as pi writes it). */
	entry(type, build, kind = type) {
		const id = this.newId();
		const parentId = this.leaf;
		const obj = build(id, parentId, isoOf(this.t));
		let line = JSON.stringify(obj);
		if (line.includes("死锁检测")) line = line.replaceAll("死锁检测", "死锁的检测");
		this.push(line, kind, { id, parentId, type, role: null, t: this.t, ctx: this.ctx, mk: 0 });
		this.leaf = id;
		this.G.stats.entries++;
		return id;
	}

	message(msg, textRef) {
		const G = this.G;
		const k = G.msgIndex++;
		let planted = null;
		for (let m = 0; m < MARKERS.length; m++) {
			if ((k + MARKERS[m].offset) % MARKERS[m].every === 0) (planted ||= []).push(m);
		}
		if (planted) for (const m of planted) this.plant(msg, m);
		const id = this.newId();
		const parentId = this.leaf;
		const e = { type: "message", id, parentId, timestamp: isoOf(this.t), message: msg };
		let line = JSON.stringify(e);
		if (line.includes("死锁检测")) line = line.replaceAll("死锁检测", "死锁的检测");
		let mk = 0;
		if (planted) {
			for (const m of planted) {
				line = line.replace(JPH[m], MARKERS[m].term);
				G.stats.markers[m].planted++;
				G.stats.markers[m].occurrences++;
				mk |= 1 << m;
			}
		}
		const role = msg.role;
		const m = { id, parentId, type: "message", role, t: this.t, ctx: 0, mk };
		this.push(line, role, m);
		this.ctx += Math.round(m.bytes / 4.6); // rough tokens (JSON overhead and details do not count fully)
		m.ctx = this.ctx;
		this.leaf = id;
		G.stats.messages++;
		G.stats.entries++;
		if (/[\u4e00-\u9fff]/.test(line)) G.stats.zhMessages++;
		return id;
	}

	plant(msg, m) {
		const r = this.r;
		const term = PH[m];
		const phrase = MARKERS[m].cjk
			? r.pick([` 需要${term}`, ` ${term}`, `（${term}）`, ` ${term}模块`])
			: r.pick([` ${term}`, ` \`${term}\``, ` ${term}.resolve()`, ` new ${term}(`]);
		const ins = (s) => {
			if (!s) return phrase.trim();
			const pos = r.int(s.length);
			let j = -1;
			for (let q = pos; q < s.length; q++) {
				const c = s.charCodeAt(q);
				if (c === 32 || c === 10 || c === 0xff0c || c === 0x3002) {
					j = q;
					break;
				}
			}
			if (j < 0) return s + phrase;
			return s.slice(0, j) + phrase + s.slice(j);
		};
		if (msg.role === "bashExecution" || msg.role === "pythonExecution") msg.output = ins(msg.output);
		else if (msg.role === "assistant") {
			let b = msg.content.find((c) => c.type === "text");
			if (!b) {
				b = { type: "text", text: this.zh ? "继续检查相关代码。" : "Let me check the related code." };
				msg.content.splice(msg.content[0] && msg.content[0].type === "thinking" ? 1 : 0, 0, b);
			}
			b.text = ins(b.text);
		} else msg.content[0].text = ins(msg.content[0].text);
	}

	// ── timing
	tick(ms) {
		const d = Math.max(1, Math.round(ms));
		// near the end of the time window, compress gaps (timestamps keep increasing, by at most 50 ms a step)
		this.t += this.t + d > END_MS - 60000 ? Math.min(d, 50) : d;
	}

	// ── text helpers
	txt(chars) {
		return this.zh ? this.G.T.zhProse(this.r, chars) : this.G.T.prose(this.r, chars);
	}
	sent() {
		return this.zh ? this.G.T.zhSentence(this.r) : this.G.T.sentence(this.r);
	}

	usage(outTokens) {
		const r = this.r,
			m = this.model;
		const fresh = Math.max(1, this.ctx - this.lastCallCtx);
		const ctx = Math.max(fresh, this.ctx);
		this.lastCallCtx = this.ctx + outTokens;
		let input, cacheRead, cacheWrite;
		if (m.provider === "anthropic") {
			input = 1 + r.int(12);
			cacheWrite = fresh;
			cacheRead = Math.max(0, ctx - fresh + 3000 + r.int(500));
		} else if (m.provider === "openai") {
			cacheRead = Math.max(0, Math.floor((ctx - fresh) / 256) * 256);
			input = ctx - cacheRead + 2500;
			cacheWrite = 0;
		} else {
			input = ctx + 2500;
			cacheRead = 0;
			cacheWrite = 0;
		}
		const [pi, po, pr, pw] = m.price;
		const cost = {
			input: (input * pi) / 1e6,
			output: (outTokens * po) / 1e6,
			cacheRead: (cacheRead * pr) / 1e6,
			cacheWrite: (cacheWrite * pw) / 1e6,
			total: 0,
		};
		cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
		return { input, output: outTokens, cacheRead, cacheWrite, totalTokens: input + outTokens + cacheRead + cacheWrite, cost };
	}

	assistant(content, stopReason, extra) {
		const r = this.r,
			m = this.model;
		const t0 = this.t;
		let chars = 0;
		for (const c of content)
			chars += c.type === "text" ? c.text.length : c.type === "thinking" ? c.thinking.length : JSON.stringify(c.arguments).length;
		this.tick(800 + r.logn(4000, 0.8) + chars * 8);
		const msg = {
			role: "assistant",
			content,
			api: m.api,
			provider: m.provider,
			model: m.model,
			usage: this.usage(Math.round(chars / 3.8) + 5),
			stopReason,
			timestamp: t0,
		};
		if (m.provider === "anthropic") msg.responseId = `msg_01${r.b62(22)}`;
		else if (m.provider === "openai") msg.responseId = `resp_${r.hex(48)}`;
		else if (m.provider === "openrouter") msg.responseId = `gen-${Math.floor(t0 / 1000)}-${r.b62(20)}`;
		if (extra) Object.assign(msg, extra);
		return this.message(msg);
	}

	toolCallId(name) {
		const r = this.r,
			p = this.model.provider;
		if (p === "anthropic") return `toolu_01${r.b62(22)}`;
		if (p === "openai") return `call_${r.b62(24)}|fc_${r.hex(48)}`;
		if (p === "google") return `${name}_${Math.floor(this.t)}_${r.int(100)}`;
		return `call_${r.b62(24)}`;
	}

	thinkingBlock() {
		const r = this.r,
			T = this.G.T;
		const text = r.chance(0.85) || !this.zh ? T.prose(r, r.logn(500, 0.9)) : T.zhProse(r, r.logn(400, 0.8));
		const b = { type: "thinking", thinking: text };
		if (this.model.provider === "anthropic")
			b.thinkingSignature =
				Buffer.from(r.hex(Math.round(r.logn(400, 0.5))), "hex")
					.toString("base64")
					.replace(/=+$/, "") + r.b62(40);
		return b;
	}

	// ── session lifecycle
	start() {
		const G = this.G,
			r = this.r;
		// fork?
		let parent = null;
		if (this.wantFork && G.ring.length) {
			const cand = G.ring[r.int(G.ring.length)];
			const users = [];
			for (let k = 3; k < cand.meta.length; k++) if (cand.meta[k].role === "user") users.push(k);
			if (users.length) parent = { S: cand, k: r.pick(users) };
		}
		if (parent) {
			const { S: ps, k } = parent;
			this.P = ps.P;
			this.model = ps.model;
			this.thinking = ps.thinking;
			this.zh = ps.zh;
			const lastT = ps.meta[k - 1].t;
			this.t = Math.floor(Math.min(lastT + r.logn(40 * 60000, 1.6), END_MS - 3600000));
			if (this.t < lastT + 1000) this.t = lastT + 1000;
			this.startMs = this.t;
			this.id = uuidv7(r, this.t);
			this.parentSession = G.omp
				? `${HOME}/.omp/agent/sessions/${ps.P.ompDir}/${ps.basename}`
				: `/home/dev/.pi/agent/sessions/${ps.P.dirName}/${ps.basename}`;
			this.header();
			for (let j = ps.hdr; j < k; j++) {
				const m = ps.meta[j];
				this.ids.add(m.id);
				this.push(ps.lines[j], m.kind, { ...m });
				for (let q = 0; q < MARKERS.length; q++) if (m.mk & (1 << q)) G.stats.markers[q].occurrences++;
				G.stats.copiedEntries++;
				this.leaf = m.id;
				this.ctx = m.ctx;
			}
			this.lastCallCtx = this.ctx;
			G.stats.forks++;
			this.isFork = true;
			this.tick(2000);
		} else {
			this.startMs = this.t;
			this.id = uuidv7(r, this.t);
			this.header();
			this.modelChange();
			this.tick(1 + r.int(3));
			this.entry("thinking_level_change", (id, parentId, timestamp) => ({
				type: "thinking_level_change",
				id,
				parentId,
				timestamp,
				thinkingLevel: this.thinking,
			}));
		}
		this.compactAt = this.model.window - 16384;
		this.basename = `${isoOf(this.startMs).replace(/[:.]/g, "-")}_${this.id}.jsonl`;
	}

	header() {
		if (this.G.omp) {
			// omp: the fixed-width title slot comes first; its final text is written by finishSlot()
			this.slotT = this.t;
			this.push(" ".repeat(SLOT_BYTES - 1), "title", { id: null, parentId: null, type: "title", role: null, t: this.t, ctx: 0, mk: 0 });
			if (!this.isSub && this.wantTitle) {
				this.title = this.makeTitle();
				this.G.stats.titled++;
			}
		}
		const h = { type: "session", version: 3, id: this.id, timestamp: isoOf(this.t), cwd: this.P.cwd };
		if (this.title) h.title = this.title;
		if (this.parentSession) h.parentSession = this.parentSession;
		this.push(JSON.stringify(h), "session", { id: null, parentId: null, type: "session", role: null, t: this.t, ctx: 0, mk: 0 });
	}

	modelChange() {
		const m = this.model;
		if (this.G.omp)
			this.entry("model_change", (id, parentId, timestamp) => ({
				type: "model_change",
				id,
				parentId,
				timestamp,
				model: `${m.provider}/${m.model}`,
			}));
		else
			this.entry("model_change", (id, parentId, timestamp) => ({
				type: "model_change",
				id,
				parentId,
				timestamp,
				provider: m.provider,
				modelId: m.model,
			}));
	}

	run(target) {
		this.target = target;
		this.start();
		let turn = 0;
		do this.turn(turn++);
		while (!this.full());
		if (this.G.omp) {
			this.sessionExit();
			this.finishSlot();
		}
	}

	// ── omp
	/** Rewrite line 1 (the title slot) with the final title: exactly SLOT_BYTES bytes with the newline. */
	finishSlot() {
		const slot = { type: "title", v: 1, title: this.title, updatedAt: isoOf(this.slotT), source: this.titleSource, pad: "" };
		const n = SLOT_BYTES - 1 - byteLen(JSON.stringify(slot));
		if (n < 0) throw new Error(`title too long for the slot: ${this.title}`);
		slot.pad = " ".repeat(n);
		const line = JSON.stringify(slot);
		if (byteLen(line) !== SLOT_BYTES - 1) throw new Error("title slot has the wrong size");
		this.lines[0] = line;
	}

	makeTitle() {
		const o = this.o,
			T = this.G.T;
		const topic = o.chance(0.5) ? T.kebab(o).replace(/-/g, " ") : T.pascal(o);
		let t = this.zh
			? `${o.pick(["修复", "重构", "优化", "排查", "实现", "调试"])} ${topic} ${o.pick(["的问题", "性能", "逻辑", "测试", ""])}`.trim()
			: `${cap(o.pick(["fix", "refactor", "debug", "speed up", "investigate", "implement", "add tests for", "clean up", "review"]))} ${topic}${o.chance(0.3) ? ` in ${o.pick(this.P.subs)}` : ""}`;
		while (byteLen(t) > 120) t = t.slice(0, -1);
		return t;
	}

	sessionExit() {
		this.tick(20 + this.o.int(2000));
		this.entry("custom", (id, parentId, timestamp) => ({ type: "custom", customType: "session_exit", id, parentId, timestamp }));
	}

	rename() {
		const prev = this.title;
		this.tick(1000 + this.o.int(20000));
		let title;
		do title = this.makeTitle();
		while (title === prev);
		this.entry("title_change", (id, parentId, timestamp) => {
			const e = { type: "title_change", id, parentId, timestamp, title };
			if (prev) e.previousTitle = prev;
			e.source = "user";
			return e;
		});
		this.title = title;
		this.titleSource = "user";
		this.slotT = this.t;
		this.G.stats.titleChanges++;
	}

	developerMessage() {
		const o = this.o;
		let text = o.pick(DEV_NOTES);
		if (o.chance(0.4)) text += `\n\nOpen todos:\n${Array.from({ length: 1 + o.int(4) }, (_, i) => `${i + 1}. ${this.sent()}`).join("\n")}`;
		const t0 = this.t;
		this.tick(1 + o.int(5));
		this.message({ role: "developer", content: [{ type: "text", text }], timestamp: t0 });
	}

	pythonExec() {
		const r = this.r,
			T = this.G.T,
			P = this.P;
		const x = r.next();
		let code,
			output,
			exitCode = 0;
		if (x < 0.3) {
			const f = r.pick(P.files);
			code = `import pathlib\ntext = pathlib.Path("${f}").read_text()\nprint(len(text.splitlines()), "lines")\nprint([l for l in text.splitlines() if "${T.camel(r)}" in l][:10])`;
			output = `${20 + r.int(900)} lines\n[${Array.from({ length: r.int(4) }, () => `'${T.camel(r)}(${T.camel(r)})'`).join(", ")}]`;
		} else if (x < 0.55) {
			const pat = T.camel(r);
			code = `import re, pathlib\nhits = [p for p in pathlib.Path(".").rglob("*") if p.is_file() and re.search(r"${pat}", p.read_text(errors="ignore"))]\nfor p in hits[:20]:\n    print(p)`;
			output = P.files.filter(() => r.chance(0.08)).join("\n");
		} else if (x < 0.8) {
			code = codeSnippet("py", r, T, 2 + r.int(6), P);
			output = r.chance(0.5) ? JSON.stringify({ [T.camel(r)]: r.int(1000), [T.camel(r)]: T.words(r, 3) }) : this.sent();
		} else {
			code = `import ${P.name.replace(/-/g, "_")}.${T.snake(r)} as m\nm.${T.snake(r)}(${r.int(100)})`;
			output = stackTrace("py", r, T, P, errorLine("py", r, T));
			exitCode = 1;
		}
		const t0 = this.t;
		this.tick(r.logn(800, 1));
		this.message({ role: "pythonExecution", code, output, exitCode, timestamp: t0 });
	}

	subTask(kind) {
		const o = this.o,
			T = this.G.T,
			P = this.P;
		const f = srcFile(o, P),
			id = T.camel(o),
			dir = o.pick(P.subs);
		if (this.zh && o.chance(0.85)) {
			if (kind === "explore") return `找出 \`${id}\` 的定义和所有调用方（重点看 ${dir} 模块），列出文件和行号。${T.zhSentence(o)}`;
			if (kind === "fix") return `修复 ${testFile(o, P)} 里失败的测试：\`${errorLine(P.lang, o, T).split("\n")[0]}\`。只改 ${f}。`;
			if (kind === "review") return `审查 ${f} 的改动，${T.zhSentence(o)}`;
			if (kind === "test") return `给 \`${id}\` 补单元测试，覆盖边界条件，然后运行测试。`;
			if (kind === "plan") return `为 ${dir} 模块的重构写一个计划：${T.zhSentence(o)}`;
			return `更新 ${dir} 相关的文档，说明 \`${id}\` 的用法。`;
		}
		if (kind === "explore")
			return `Find where \`${id}\` is defined and every caller, starting in ${dir}/. Report file paths with line numbers and how the value flows. ${T.sentence(o)}`;
		if (kind === "fix")
			return `Fix the failing test in ${testFile(o, P)}: \`${errorLine(P.lang, o, T).split("\n")[0]}\`. Only touch ${f} unless you must; run the test afterwards.`;
		if (kind === "review") return `Review the current changes to ${f} for bugs, missing error handling and races. ${T.sentence(o)}`;
		if (kind === "test") return `Add unit tests for \`${id}\` in ${f} covering ${T.words(o, 2 + o.int(3))}, then run them.`;
		if (kind === "plan") return `Write a step-by-step plan to refactor the ${dir} module so that ${T.sentence(o).toLowerCase()}`;
		return `Update the docs for \`${id}\` (${dir}) to match the code: ${T.sentence(o)}`;
	}

	/** The parent's `task` tool step: one call naming 1–8 agents, their transcripts, the combined result. */
	taskStep() {
		const G = this.G,
			r = this.r,
			o = this.o,
			_P = this.P;
		const n = o.weighted(AGENT_COUNTS);
		const agents = [];
		for (let a = 0; a < n; a++) {
			const [kind, , tools] = o.weighted(SUB_KINDS.map((k) => [k, k[1]]));
			const name = `${kind}-${(this.agentN[kind] = (this.agentN[kind] || 0) + 1)}`;
			agents.push({ name, kind, tools, task: this.subTask(kind) });
		}
		const content = [];
		if (this.thinking !== "off" && r.chance(0.4)) content.push(this.thinkingBlock());
		content.push({
			type: "text",
			text: this.zh
				? `我让 ${n} 个子代理并行处理：${agents.map((a) => a.name).join("、")}。`
				: r.pick([
						`I'll split this across ${n} sub-agent${n > 1 ? "s" : ""}.`,
						`Let me delegate the ${n > 1 ? "parallel parts" : "search"} to sub-agents.`,
						this.sent(),
					]),
		});
		const callId = this.toolCallId("task");
		content.push({ type: "toolCall", id: callId, name: "task", arguments: { agents: agents.map(({ name, task }) => ({ name, task })) } });
		this.assistant(content, "toolUse");
		const t0 = this.t;
		let tEnd = t0;
		const res = [];
		for (let a = 0; a < n; a++) {
			const A = agents[a];
			const S = new Session(G, this.i, seedOf(G.seed, "sub", this.i, A.name), true);
			const left = this.target - this.bytes - this.subBytes;
			const target = Math.min(Math.min(250e3, Math.max(2000, S.r.logn(6e3, 0.9))), Math.max(2000, left / (n - a)));
			S.runSub(this, A, t0 + 30 + o.int(500), target);
			this.subs.push({ name: A.name, text: `${S.lines.join("\n")}\n`, bytes: S.bytes });
			this.subBytes += S.bytes;
			tEnd = Math.max(tEnd, S.t);
			res.push({ name: A.name, reply: S.reply, durationMs: S.t - S.startMs, toolUses: S.steps });
		}
		this.t = tEnd;
		this.tick(20 + o.int(300));
		// the agents' replies as the result (runSub's reply is the text before any marker was planted)
		const text = res.map((x) => `## ${x.name}\n\n${x.reply.length > 4000 ? `${x.reply.slice(0, 4000)}\n…` : x.reply}`).join("\n\n");
		const msg = {
			role: "toolResult",
			toolCallId: callId,
			toolName: "task",
			content: [{ type: "text", text }],
			details: { agents: res.map((x) => ({ name: x.name, status: "completed", durationMs: x.durationMs, toolUses: x.toolUses })) },
			isError: false,
			timestamp: this.t,
		};
		this.tick(1 + r.int(4));
		this.message(msg);
		if (!this.taskCalls++) G.stats.sessionsWithTask++;
		G.stats.taskCalls++;
	}

	/** Run as sub-agent `A` of `parent`, starting at `t`: a complete omp session file of its own. */
	runSub(parent, A, t, target) {
		const o = this.o,
			T = this.G.T;
		this.target = target;
		this.P = parent.P;
		this.model = parent.model;
		this.thinking = parent.thinking;
		this.zh = parent.zh;
		this.t = t;
		this.startMs = t;
		this.id = uuidv7(this.r, t);
		this.header();
		const P = this.P;
		const systemPrompt =
			`You are ${A.name}, a ${A.kind} sub-agent working in ${P.cwd} for a parent coding agent. You can use these tools: ${A.tools.join(", ")}.\n\n` +
			T.prose(o, o.logn(1400, 0.35)) +
			"\n\nWhen you are done, reply with a concise report for the parent agent: what you found or changed, with file paths.";
		this.entry("session_init", (id, parentId, timestamp) => ({
			type: "session_init",
			id,
			parentId,
			timestamp,
			systemPrompt,
			task: A.task,
			tools: A.tools,
		}));
		this.tick(5 + o.int(60));
		const t0 = this.t;
		this.tick(2);
		this.message({ role: "user", content: [{ type: "text", text: A.task }], attribution: "agent", timestamp: t0 });
		const w = TOOL_W.filter(([name]) => A.tools.includes(name));
		this.steps = 0;
		do {
			this.toolStep(w);
			this.steps++;
		} while (!this.full() && this.steps < 40);
		this.reply = this.finalReply();
		this.finishSlot();
	}

	turn(k) {
		const r = this.r,
			G = this.G,
			T = G.T;
		if (k > 0 || this.isFork) {
			const x = r.next();
			if (G.omp && x < 0.04) this.sessionExit(); // omp writes session_exit at every exit; resumed hours later
			this.tick(x < 0.04 ? r.logn(6 * 3600000, 1) : x < 0.15 ? r.logn(15 * 60000, 1) : r.logn(70000, 0.9));
		}
		if (this.wantBranch && !this.branched && k >= 1 && (r.chance(0.5) || this.bytes > this.target * 0.5)) this.branch();
		if (this.ctx > this.compactAt || k === this.manualCompactTurn) this.compact();
		if (k === this.modelChangeTurn) {
			this.model = r.weighted(MODELS.map((m) => [m, m.w]));
			this.compactAt = this.model.window - 16384;
			this.modelChange();
			this.tick(500);
		}
		if (this.wantCustom && r.chance(0.25)) {
			this.entry("custom", (id, parentId, timestamp) => ({
				type: "custom",
				customType: "plan-mode",
				data: { enabled: r.chance(0.5), todos: Array.from({ length: 1 + r.int(5) }, () => ({ text: this.sent(), done: r.chance(0.4) })) },
				id,
				parentId,
				timestamp,
			}));
			this.tick(5);
		}
		if (this.wantCustomMsg && r.chance(0.35)) this.customMessage();
		if (r.chance(0.04)) this.userBash();
		if (G.omp) {
			if (this.o.chance(0.025)) this.pythonExec();
			if (this.o.chance(0.04)) this.developerMessage();
		}
		this.userPrompt();
		// agent loop
		const steps = Math.min(80, Math.floor(r.logn(3.5, 1.0)));
		for (let s = 0; s < steps; s++) {
			if (this.full()) break;
			if (r.chance(0.006)) {
				// aborted / error
				const aborted = r.chance(0.6);
				this.assistant(
					r.chance(0.5) ? [{ type: "text", text: this.sent() }] : [],
					aborted ? "aborted" : "error",
					aborted
						? { errorMessage: "Request was aborted" }
						: {
								errorMessage: r.pick([
									'529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
									"terminated",
									"429 Too Many Requests: rate limit exceeded",
									"fetch failed: ECONNRESET",
								]),
							},
				);
				return;
			}
			if (this.wantTask && (!this.taskCalls || (this.taskCalls < this.maxTasks && this.o.chance(this.taskP)))) this.taskStep();
			else this.toolStep();
		}
		this.finalReply();
		if (G.omp) {
			if (k === 0 && this.title) this.slotT = this.t; // the auto title is set after the first reply
			if (k === this.renameTurn) this.rename();
		} else if (k === 0 && this.wantName) {
			this.tick(200);
			const topic = r.chance(0.5) ? T.kebab(r).replace(/-/g, " ") : T.pascal(r);
			const name = this.zh
				? `${r.pick(["修复", "重构", "优化", "排查", "实现", "调试"])} ${topic} ${r.pick(["的问题", "性能", "逻辑", "测试", ""])}`.trim()
				: `${r.pick(["fix", "refactor", "debug", "speed up", "investigate", "implement", "add tests for", "clean up"])} ${topic}`;
			this.entry("session_info", (id, parentId, timestamp) => ({ type: "session_info", id, parentId, timestamp, name }));
		}
		if (this.wantLabel && r.chance(0.3)) {
			const cands = this.meta.filter((m) => m.role === "user" || m.role === "assistant");
			const target = r.pick(cands);
			if (target) {
				this.tick(3000);
				this.entry("label", (id, parentId, timestamp) => ({
					type: "label",
					id,
					parentId,
					timestamp,
					targetId: target.id,
					label: r.pick(LABELS),
				}));
				G.stats.labels++;
			}
		}
	}

	branch() {
		const r = this.r,
			_T = this.G.T;
		// user messages on the current path, most recent first
		const byId = new Map(this.meta.filter((m) => m.id).map((m) => [m.id, m]));
		const users = [];
		for (let m = byId.get(this.leaf); m && users.length < 4; m = byId.get(m.parentId)) if (m.role === "user") users.push(m);
		if (!users.length) return;
		const u = r.pick(users);
		const back = byId.get(u.parentId);
		if (!back) return;
		this.branched = true;
		this.G.stats.branchedSessions++;
		this.leaf = back.id;
		this.ctx = back.ctx;
		this.lastCallCtx = back.ctx;
		if (r.chance(0.35)) {
			const summary = `The user explored a different conversation branch before returning here.\nSummary of that exploration:\n\n${this.summaryText(r.logn(900, 0.6))}`;
			const details = { readFiles: [...this.readFiles].slice(0, 20), modifiedFiles: [...this.modifiedFiles].slice(0, 10) };
			this.entry("branch_summary", (id, parentId, timestamp) =>
				this.G.omp
					? { type: "branch_summary", id, parentId, timestamp, fromId: parentId, summary, details, fromExtension: false }
					: { type: "branch_summary", id, parentId, timestamp, fromId: parentId, summary, details, fromHook: false },
			);
			if (r.chance(0.3))
				this.entry("label", (id, parentId, timestamp) => ({
					type: "label",
					id,
					parentId,
					timestamp,
					targetId: parentId,
					label: r.pick(LABELS),
				}));
		}
	}

	summaryText(chars) {
		const r = this.r,
			T = this.G.T;
		const s = () => this.sent();
		const L = ["## Goal", s(), "", "## Constraints & Preferences"];
		for (let i = 0, n = 1 + r.int(3); i < n; i++) L.push(`- ${s()}`);
		L.push("", "## Progress", "### Done");
		for (let i = 0, n = 2 + r.int(5); i < n; i++) L.push(`- [x] ${s()}`);
		L.push("", "### In Progress", `- [ ] ${s()}`, "", "## Key Decisions");
		for (let i = 0, n = 1 + r.int(4); i < n; i++) L.push(`- **${T.words(r, 2 + r.int(2))}**: ${s()}`);
		L.push("", "## Next Steps");
		for (let i = 0, n = 1 + r.int(4); i < n; i++) L.push(`${i + 1}. ${s()}`);
		L.push("", "## Critical Context");
		let len = L.join("\n").length;
		while (len < chars) {
			const x = `- ${s()}`;
			L.push(x);
			len += x.length;
		}
		return L.join("\n");
	}

	compact() {
		const r = this.r;
		const byId = new Map(this.meta.filter((m) => m.id).map((m) => [m.id, m]));
		const path = [];
		for (let m = byId.get(this.leaf); m; m = byId.get(m.parentId)) path.push(m);
		// keep from a recent user message (roughly the last 20k tokens)
		let kept = null;
		for (const m of path) {
			if (m.role === "user") {
				kept = m;
				if (this.ctx - m.ctx + (m.bytes >> 2) > 20000) break;
			}
		}
		if (!kept) return;
		const tokensBefore = this.ctx;
		let summary = this.summaryText(r.logn(2500, 0.5));
		const rf = [...this.readFiles],
			mf = [...this.modifiedFiles];
		summary += `\n\n<read-files>\n${rf.join("\n")}\n</read-files>\n\n<modified-files>\n${mf.join("\n")}\n</modified-files>`;
		this.tick(r.logn(25000, 0.5));
		if (this.G.omp) {
			const shortSummary = this.o.chance(0.85) ? this.sent().slice(0, 160) : null;
			this.entry("compaction", (id, parentId, timestamp) => {
				const e = { type: "compaction", id, parentId, timestamp, summary };
				if (shortSummary) e.shortSummary = shortSummary;
				return Object.assign(e, {
					firstKeptEntryId: kept.id,
					tokensBefore,
					details: { readFiles: rf, modifiedFiles: mf },
					fromExtension: false,
				});
			});
		} else
			this.entry("compaction", (id, parentId, timestamp) => ({
				type: "compaction",
				id,
				parentId,
				timestamp,
				summary,
				firstKeptEntryId: kept.id,
				tokensBefore,
				details: { readFiles: rf, modifiedFiles: mf },
				fromHook: false,
			}));
		this.ctx = Math.round(summary.length / 4) + (tokensBefore - kept.ctx) + (kept.bytes >> 2);
		this.lastCallCtx = this.ctx;
		if (!this.compactions) this.G.stats.compactedSessions++;
		this.compactions++;
		this.G.stats.compactions++;
	}

	customMessage() {
		const r = this.r,
			T = this.G.T,
			P = this.P;
		const ct = r.pick(CUSTOM_TYPES);
		let content, details;
		if (ct === "git-context") {
			content = `Branch: ${r.pick(["main", "dev", `fix/${T.kebab(r)}`, `feat/${T.kebab(r)}`])}\nModified files:\n${Array.from({ length: 1 + r.int(6) }, () => ` M ${srcFile(r, P)}`).join("\n")}`;
			details = { dirty: true };
		} else if (ct === "todo-reminder") {
			content = Array.from({ length: 1 + r.int(5) }, (_, i) => `${i + 1}. [${r.chance(0.4) ? "x" : " "}] ${this.sent()}`).join("\n");
			details = { open: 1 + r.int(4) };
		} else if (ct === "lookback-results") {
			content = Array.from(
				{ length: 1 + r.int(5) },
				() => `- ${isoOf(this.t - r.int(90) * DAY).slice(0, 10)} ${P.name}: ${this.sent()}`,
			).join("\n");
			details = { hits: 1 + r.int(20), query: T.words(r, 2) };
		} else {
			content = `CI ${r.chance(0.6) ? "passed" : "failed"} on ${r.hex(7)}: ${this.sent()}`;
			details = { runId: r.int(1e7) };
		}
		this.entry("custom_message", (id, parentId, timestamp) => ({
			type: "custom_message",
			customType: ct,
			content,
			display: r.chance(0.7),
			details,
			id,
			parentId,
			timestamp,
		}));
		this.tick(10);
	}

	userPrompt() {
		const r = this.r,
			T = this.G.T,
			P = this.P;
		let text;
		const zh = this.zh ? r.chance(0.92) : r.chance(0.02);
		const x = r.next();
		if (x < 0.09) {
			const log = r.chance(0.5) ? testLog(r, T, P, true, r.logn(2500, 0.9)).text : stackTrace(P.lang, r, T, P, errorLine(P.lang, r, T));
			text = zh
				? `运行测试的时候报错了：\n\n\`\`\`\n${log}\n\`\`\`\n\n${T.zhSentence(r)}`
				: `I get this when running the tests:\n\n\`\`\`\n${log}\n\`\`\`\n\n${T.sentence(r)}`;
		} else if (x < 0.11) {
			const sk = r.pick(SKILLS);
			text = `<skill name="${sk}" location="/home/dev/.pi/agent/skills/${sk}/SKILL.md">\n# ${sk}\n\n${T.prose(r, r.logn(1500, 0.5))}\n</skill>\n\n${zh ? T.zhSentence(r) : T.sentence(r)}`;
		} else if (zh) {
			text = r.pick([
				() => `帮我看一下 ${srcFile(r, P)} 里的 \`${T.camel(r)}\`，${T.zhSentence(r)}`,
				() => `测试失败了：\`${errorLine(P.lang, r, T).split("\n")[0]}\`。${T.zhSentence(r)}`,
				() => T.zhParagraph(r, 1 + r.int(4)),
				() => `为什么 \`${T.camel(r)}\` ${T.zhSentence(r)}${T.zhSentence(r)}`,
				() => r.pick(["继续", "好的，继续", "提交一下", "跑一下测试"]),
				() => `把 ${srcFile(r, P)} 重构一下，${T.zhSentence(r)}`,
				() => `${T.zhSentence(r)}\n\n1. ${T.zhSentence(r)}\n2. ${T.zhSentence(r)}\n3. ${T.zhSentence(r)}`,
			])();
		} else {
			text = r.pick([
				() =>
					`The ${T.camel(r)} test in ${testFile(r, P)} fails with \`${errorLine(P.lang, r, T).split("\n")[0]}\`. Can you find the root cause and fix it?`,
				() => `Refactor ${srcFile(r, P)} so that ${T.sentence(r).toLowerCase()}`,
				() => T.paragraph(r, 1 + r.int(4)),
				() => `Add support for ${T.words(r, 2 + r.int(3))} in \`${T.camel(r)}\`. ${T.sentence(r)}`,
				() => `Why is \`${T.camel(r)}\` so slow when ${T.words(r, 3 + r.int(4))}? ${T.sentence(r)}`,
				() =>
					r.pick([
						"run the tests and fix whatever is broken",
						"continue",
						"ok, commit this",
						"now update the README",
						"looks good, go on",
						"yes",
					]),
				() =>
					`Implement ${T.pascal(r)} in ${srcFile(r, P)}. It should ${T.words(r, 4 + r.int(6))}. Keep the existing \`${T.camel(r)}\` API.\n\n${T.paragraph(r, 1 + r.int(3))}`,
				() => `Look at ${srcFile(r, P)} and ${srcFile(r, P)}. ${T.paragraph(r, 1 + r.int(3))}`,
				() => `${T.sentence(r)}\n\n- ${T.sentence(r)}\n- ${T.sentence(r)}\n- ${T.sentence(r)}`,
			])();
		}
		const t0 = this.t;
		this.tick(2 + r.int(10));
		if (this.G.omp) this.message({ role: "user", content: [{ type: "text", text }], attribution: "user", timestamp: t0 });
		else this.message({ role: "user", content: [{ type: "text", text }], timestamp: t0 });
	}

	userBash() {
		const r = this.r;
		const b = this.bashCase();
		const tr = truncTail(b.output);
		const t0 = this.t;
		this.tick(r.logn(1500, 1.2));
		const msg = {
			role: "bashExecution",
			command: b.command,
			output: tr ? tr.content : b.output,
			exitCode: b.exitCode,
			cancelled: false,
			truncated: !!tr,
		};
		if (tr) msg.fullOutputPath = `/tmp/pi-bash-${r.hex(16)}.log`;
		msg.timestamp = t0;
		this.message(msg);
	}

	bashCase() {
		const G = this.G,
			r = this.r,
			T = G.T,
			P = this.P;
		const x = r.next();
		const L = P.lang;
		if (x < 0.35) {
			const fail = r.chance(0.45);
			const cmd =
				L === "ts"
					? r.pick(["npm test", "npx vitest run", `npx vitest run ${testFile(r, P)}`, "npm test 2>&1 | tail -80"])
					: L === "py"
						? r.pick(["pytest -x", "python -m pytest -q", `pytest ${testFile(r, P)} -x`, "uv run pytest"])
						: L === "rs"
							? r.pick(["cargo test", "cargo test --lib", `cargo test ${T.snake(r)}`])
							: r.pick(["go test ./...", "go test -race ./...", `go test ./internal/${r.pick(P.subs)}/ -run Test${T.pascal(r)} -v`]);
			const log = testLog(r, T, P, fail, r.logn(3000, 1.1));
			return { command: cmd, output: log.text, exitCode: log.failed ? 1 : 0 };
		}
		if (x < 0.47) {
			const fail = r.chance(0.4);
			const cmd =
				L === "ts"
					? r.pick(["npx tsc --noEmit", "npm run build", "npm run lint"])
					: L === "py"
						? r.pick(["mypy .", "ruff check ."])
						: L === "rs"
							? r.pick(["cargo build", "cargo clippy -- -D warnings", "cargo check"])
							: r.pick(["go build ./...", "go vet ./..."]);
			if (!fail)
				return {
					command: cmd,
					output:
						L === "rs"
							? `   Compiling ${P.name} v0.1.0 (${P.cwd})\n    Finished \`dev\` profile [unoptimized + debuginfo] target(s) in ${(r.next() * 30).toFixed(2)}s`
							: L === "ts" && cmd.includes("build")
								? `\n> ${P.name}@0.1.0 build\n> tsc -p .\n`
								: "",
					exitCode: 0,
				};
			return { command: cmd, output: buildErrors(r, T, P, 1 + Math.floor(r.logn(3, 1))), exitCode: L === "ts" ? 2 : 1 };
		}
		if (x < 0.67) {
			const y = r.next();
			if (y < 0.3)
				return {
					command: "git status",
					output: `On branch ${r.pick(["main", "dev", `fix/${T.kebab(r)}`])}\nChanges not staged for commit:\n  (use "git add <file>..." to update what will be committed)\n  (use "git restore <file>..." to discard changes in working directory)\n${Array.from({ length: 1 + r.int(8) }, () => `\tmodified:   ${srcFile(r, P)}`).join("\n")}\n\nno changes added to commit (use "git add" and/or "git commit -a")`,
					exitCode: 0,
				};
			if (y < 0.65)
				return {
					command: r.pick(["git diff", "git diff --stat HEAD~1 && git diff HEAD~1", `git diff ${srcFile(r, P)}`]),
					output: gitDiff(G, this, r, 1 + r.int(4)),
					exitCode: 0,
				};
			if (y < 0.85)
				return {
					command: "git log --oneline -20",
					output: Array.from(
						{ length: 20 },
						() => `${r.hex(7)} ${r.pick(["fix", "feat", "refactor", "test", "chore", "docs"])}: ${T.words(r, 3 + r.int(6))}`,
					).join("\n"),
					exitCode: 0,
				};
			return {
				command: `git add -A && git commit -m "${r.pick(["fix", "feat", "refactor"])}: ${T.words(r, 3 + r.int(5))}"`,
				output: `[${r.pick(["main", "dev"])} ${r.hex(7)}] ${T.words(r, 4)}\n ${1 + r.int(9)} files changed, ${r.int(400)} insertions(+), ${r.int(200)} deletions(-)`,
				exitCode: 0,
			};
		}
		if (x < 0.73) {
			if (L === "ts") {
				if (r.chance(0.3))
					return {
						command: `npm install ${r.pick(NPM_PKGS)}`,
						output: `npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\nnpm ERR!\nnpm ERR! While resolving: ${P.name}@0.1.0\nnpm ERR! Found: ${r.pick(NPM_PKGS)}@${r.int(10)}.${r.int(10)}.0\nnpm ERR! node_modules/${r.pick(NPM_PKGS)}\nnpm ERR!\nnpm ERR! Could not resolve dependency:\nnpm ERR! peer ${r.pick(NPM_PKGS)}@"^${r.int(10)}.0.0" from ${r.pick(NPM_PKGS)}@${r.int(10)}.${r.int(10)}.${r.int(10)}\nnpm ERR!\nnpm ERR! Fix the upstream dependency conflict, or retry\nnpm ERR! this command with --force or --legacy-peer-deps\nnpm ERR! to accept an incorrect (and potentially broken) dependency resolution.\n\nnpm ERR! A complete log of this run can be found in: /home/dev/.npm/_logs/2026-${r.range(10, 11)}-${r.range(10, 28)}T10_${r.range(10, 59)}_00_000Z-debug-0.log`,
						exitCode: 1,
					};
				return {
					command: `npm install ${r.pick(NPM_PKGS)}`,
					output: `\nadded ${r.int(400)} packages, and audited ${r.int(600)} packages in ${r.int(30)}s\n\n${r.int(120)} packages are looking for funding\n  run \`npm fund\` for details\n\nfound 0 vulnerabilities`,
					exitCode: 0,
				};
			}
			if (L === "py")
				return {
					command: `pip install ${r.pick(PY_MODS)}`,
					output: `Collecting ${r.pick(PY_MODS)}\n  Downloading ${r.pick(PY_MODS)}-${r.int(5)}.${r.int(20)}.${r.int(10)}-py3-none-any.whl (${r.int(900)} kB)\nInstalling collected packages: ${r.pick(PY_MODS)}\nSuccessfully installed ${r.pick(PY_MODS)}-${r.int(5)}.${r.int(20)}.${r.int(10)}`,
					exitCode: 0,
				};
			if (L === "rs")
				return {
					command: `cargo add ${T.snake(r).replace(/_/g, "-")}`,
					output: `    Updating crates.io index\n      Adding ${T.snake(r).replace(/_/g, "-")} v${r.int(3)}.${r.int(20)}.${r.int(10)} to dependencies`,
					exitCode: 0,
				};
			return {
				command: `go get github.com/${T.kebab(r)}/${T.kebab(r)}@latest`,
				output: `go: downloading github.com/${T.kebab(r)}/${T.kebab(r)} v${r.int(3)}.${r.int(20)}.${r.int(10)}\ngo: added github.com/${T.kebab(r)}/${T.kebab(r)} v${r.int(3)}.${r.int(20)}.${r.int(10)}`,
				exitCode: 0,
			};
		}
		if (x < 0.93) {
			const y = r.next();
			if (y < 0.25) {
				const d = r.chance(0.5) ? "" : r.pick(P.files).split("/").slice(0, -1).join("/");
				return { command: `ls -la ${d}`.trim(), output: lsLong(r, T, P, d), exitCode: 0 };
			}
			if (y < 0.5) {
				const pat = T.camel(r);
				const out = [];
				for (let i = 0, n = Math.floor(r.logn(8, 1)); i < n; i++)
					out.push(
						`${srcFile(r, P)}:${1 + r.int(600)}:${LANG[L].ind}${r.pick([`const ${pat} = ${T.camel(r)}(${T.camel(r)});`, `${T.camel(r)}.${pat}(${T.camel(r)})`, `// ${pat}: ${T.sentence(r)}`, `export function ${pat}(${T.camel(r)}) {`])}`,
					);
				return {
					command: `rg -n "${pat}" ${r.pick(["src", ".", "internal", "tests"])}`,
					output: out.join("\n"),
					exitCode: out.length ? 0 : 1,
				};
			}
			if (y < 0.75) {
				const f = srcFile(r, P);
				const c = fileContent(G, P, f, this.ver).split("\n");
				const s = r.int(Math.max(1, c.length - 40));
				return { command: `sed -n '${s + 1},${s + 60}p' ${f}`, output: c.slice(s, s + 60).join("\n"), exitCode: 0 };
			}
			if (y < 0.88)
				return {
					command: `find . -name "*${T.snake(r).split("_")[0]}*" -not -path "./node_modules/*"`,
					output: P.files
						.filter(() => r.chance(0.1))
						.map((f) => `./${f}`)
						.join("\n"),
					exitCode: 0,
				};
			return {
				command: `wc -l ${P.src.slice(0, 12).join(" ")}`,
				output: `${P.src
					.slice(0, 12)
					.map((f) => `${String(r.int(900)).padStart(5)} ${f}`)
					.join("\n")}\n${String(r.int(9000)).padStart(5)} total`,
				exitCode: 0,
			};
		}
		// run something
		const y = r.next();
		if (y < 0.45)
			return {
				command:
					L === "py"
						? `python -m ${P.name.replace(/-/g, "_")}.${T.snake(r)}`
						: L === "ts"
							? `node scripts/${T.kebab(r)}.mjs`
							: L === "rs"
								? "cargo run --release"
								: `go run ./cmd/${P.name}`,
				output: stackTrace(L, r, T, P, errorLine(L, r, T)),
				exitCode: 1,
			};
		if (y < 0.7)
			return {
				command: `curl -s localhost:${r.pick([3000, 8080, 8000])}/api/${T.kebab(r)} | jq .`,
				output: JSON.stringify(
					{
						[T.camel(r)]: r.int(1000),
						items: Array.from({ length: 1 + r.int(6) }, () => ({
							id: r.hex(8),
							[T.camel(r)]: T.words(r, 3),
							score: Math.round(r.next() * 1000) / 1000,
						})),
					},
					null,
					2,
				),
				exitCode: 0,
			};
		return {
			command: `sqlite3 .data/index.db "EXPLAIN QUERY PLAN SELECT * FROM ${T.snake(r)} WHERE ${T.snake(r)} = ?"`,
			output: `QUERY PLAN\n\`--SEARCH ${T.snake(r)} USING INDEX idx_${T.snake(r)} (${T.snake(r)}=?)`,
			exitCode: 0,
		};
	}

	toolStep(toolW = TOOL_W) {
		const r = this.r,
			G = this.G,
			T = G.T,
			P = this.P;
		const content = [];
		if (this.thinking !== "off" && r.chance(0.45)) content.push(this.thinkingBlock());
		if (r.chance(0.55)) {
			const f = srcFile(r, P);
			content.push({
				type: "text",
				text:
					this.zh && r.chance(0.9)
						? r.pick([
								`我先看一下 ${f}。`,
								T.zhSentence(r),
								`问题出在 \`${T.camel(r)}\`：${T.zhSentence(r)}我来修复。`,
								"先运行测试看看。",
								T.zhParagraph(r, 2),
							])
						: r.pick([
								`Let me look at ${f} first.`,
								"I'll run the test suite to see the current failures.",
								T.sentence(r),
								`The problem is in \`${T.camel(r)}\`: ${T.sentence(r)} Let me fix it.`,
								`Now let me check ${f}.`,
								T.paragraph(r, 2),
							]),
			});
		}
		const nCalls = r.chance(0.15) ? 2 + r.int(3) : 1;
		const results = [];
		for (let c = 0; c < nCalls; c++) {
			const tool = r.weighted(toolW);
			const id = this.toolCallId(tool);
			const spec = this.toolSpec(tool);
			content.push({ type: "toolCall", id, name: tool, arguments: spec.args });
			results.push([id, tool, spec]);
		}
		this.assistant(content, "toolUse");
		for (const [id, tool, spec] of results) {
			const res = spec.result();
			this.tick(tool === "bash" ? r.logn(3000, 1.3) : 5 + r.logn(30, 1));
			const msg = { role: "toolResult", toolCallId: id, toolName: tool, content: [{ type: "text", text: res.text }] };
			if (res.details !== undefined) msg.details = res.details;
			msg.isError = !!res.isError;
			msg.timestamp = this.t;
			this.tick(1 + r.int(4));
			this.message(msg);
		}
	}

	toolSpec(tool) {
		const r = this.r,
			G = this.G,
			T = G.T,
			P = this.P;
		const rel = (f) => (r.chance(0.6) ? f : `${P.cwd}/${f}`);
		if (tool === "read") {
			const f = r.chance(0.85) ? srcFile(r, P) : r.pick(P.files);
			const args = { path: rel(f) };
			const lines = fileContent(G, P, f, this.ver).split("\n");
			const ranged = r.chance(0.12);
			const beyond = ranged && r.chance(0.05);
			if (ranged) {
				args.offset = beyond ? lines.length + 1 + r.int(200) : 1 + r.int(Math.max(1, lines.length - 1));
				args.limit = r.pick([50, 100, 200, 400]);
			}
			this.readFiles.add(f);
			return {
				args,
				result: () => {
					if (r.chance(0.02))
						return {
							text: `ENOENT: no such file or directory, access '${P.cwd}/${f.replace(/\.\w+$/, "")}2${f.slice(f.lastIndexOf("."))}'`,
							isError: true,
							details: {},
						};
					if (beyond)
						return { text: `Offset ${args.offset} is beyond end of file (${lines.length} lines total)`, isError: true, details: {} };
					let start = 0,
						sel = lines;
					if (ranged) {
						start = Math.min(args.offset - 1, Math.max(0, lines.length - 1));
						sel = lines.slice(start, start + args.limit);
					}
					const text = sel.join("\n");
					const tr = truncHead(text);
					if (tr) {
						const end = start + tr.outputLines;
						return {
							text:
								tr.content +
								(tr.truncatedBy === "lines"
									? `\n\n[Showing lines ${start + 1}-${end} of ${lines.length}. Use offset=${end + 1} to continue.]`
									: `\n\n[Showing lines ${start + 1}-${end} of ${lines.length} (${formatSize(MAX_BYTES)} limit). Use offset=${end + 1} to continue.]`),
							details: { truncation: tr },
						};
					}
					if (ranged && start + sel.length < lines.length)
						return {
							text: `${text}\n\n[${lines.length - start - sel.length} more lines in file. Use offset=${start + sel.length + 1} to continue.]`,
						};
					return { text };
				},
			};
		}
		if (tool === "bash") {
			const b = this.bashCase();
			const args = { command: b.command };
			if (r.chance(0.1)) args.timeout = r.pick([60, 120, 300, 600]);
			return {
				args,
				result: () => {
					const tr = truncTail(b.output);
					let text = tr ? tr.content : b.output || "(no output)";
					let details;
					if (tr) {
						const fp = `/tmp/pi-bash-${r.hex(16)}.log`;
						details = { truncation: tr, fullOutputPath: fp };
						const s = tr.totalLines - tr.outputLines + 1;
						text +=
							tr.truncatedBy === "lines"
								? `\n\n[Showing lines ${s}-${tr.totalLines} of ${tr.totalLines}. Full output: ${fp}]`
								: `\n\n[Showing lines ${s}-${tr.totalLines} of ${tr.totalLines} (${formatSize(MAX_BYTES)} limit). Full output: ${fp}]`;
					}
					if (b.exitCode !== 0)
						return {
							text: `${text && text !== "(no output)" ? `${text}\n\n` : ""}Command exited with code ${b.exitCode}`,
							isError: true,
							details: {},
						};
					return { text, details };
				},
			};
		}
		if (tool === "edit") {
			const f = srcFile(r, P);
			const lines = fileContent(G, P, f, this.ver).split("\n");
			const nEdits = r.chance(0.25) ? 2 + r.int(2) : 1;
			const edits = [];
			const diffs = [];
			let first = 0;
			for (let e = 0; e < nEdits; e++) {
				const start = r.int(Math.max(1, lines.length - 16));
				const oldL = lines.slice(start, start + 2 + r.int(10));
				const newL = [];
				LANG[P.lang].stmts(r, T, newL, LANG[P.lang].ind, 1 + r.int(6), P);
				if (r.chance(0.5)) newL.unshift(...oldL.slice(0, 1 + r.int(Math.max(1, oldL.length - 1))));
				edits.push({ oldText: oldL.join("\n"), newText: newL.join("\n") });
				diffs.push(
					editDiff(
						oldL,
						newL,
						start + 1,
						lines.slice(Math.max(0, start - 4), start),
						lines.slice(start + oldL.length, start + oldL.length + 4),
					),
				);
				if (!e) first = start + 1;
			}
			this.modifiedFiles.add(f);
			const p = rel(f);
			return {
				args: { path: p, edits },
				result: () => {
					if (r.chance(0.08))
						return {
							text: r.pick([
								`Could not find the exact text in ${p}. The old text must match exactly including all whitespace and newlines.`,
								`Found ${2 + r.int(3)} occurrences of the text in ${p}. The text must be unique. Please provide more context to make it unique.`,
							]),
							isError: true,
							details: {},
						};
					return {
						text: `Successfully replaced ${edits.length} block(s) in ${p}.`,
						details: { diff: diffs.join(`\n ${" ".repeat(3)} ...\n`), firstChangedLine: first },
					};
				},
			};
		}
		if (tool === "write") {
			const f = r.chance(0.6)
				? srcFile(r, P)
				: (LANG[P.lang] && P.src.length ? P.src[0].replace(/[^/]+$/, "") : "") +
					T.snake(r) +
					{ ts: ".ts", py: ".py", rs: ".rs", go: ".go" }[P.lang];
			const content = genCode(P.lang, r, T, r.logn(2500, 0.8), P, false);
			this.modifiedFiles.add(f);
			const p = rel(f);
			return { args: { path: p, content }, result: () => ({ text: `Successfully wrote ${content.length} bytes to ${p}` }) };
		}
		if (tool === "grep") {
			const pat = r.chance(0.7) ? T.camel(r) : r.chance(0.5) ? T.pascal(r) : `${T.camel(r)}|${T.camel(r)}`;
			const args = { pattern: pat };
			if (r.chance(0.5)) args.path = r.pick(["src", "tests", "internal", "."]);
			if (r.chance(0.3)) args.glob = `*${{ ts: ".ts", py: ".py", rs: ".rs", go: ".go" }[P.lang]}`;
			if (r.chance(0.2)) args.context = 2;
			return {
				args,
				result: () => {
					const n = Math.floor(r.logn(10, 1.1));
					if (!n) return { text: "No matches found" };
					const out = [];
					for (let i = 0; i < Math.min(n, 100); i++) {
						const f = srcFile(r, P);
						const ln = 1 + r.int(700);
						const sl = [];
						LANG[P.lang].stmts(r, T, sl, LANG[P.lang].ind, 1, P);
						const line = sl[0].replace(/[A-Za-z_][A-Za-z0-9_]{4,}/, pat.split("|")[0]);
						if (args.context) out.push(`${f}-${ln - 1}- ${sl[1] || ""}`, `${f}:${ln}: ${line}`, `${f}-${ln + 1}- `);
						else out.push(`${f}:${ln}: ${line}`);
					}
					let text = out.join("\n");
					if (n > 100) text += "\n\n[100 matches limit reached. Use limit=200 for more, or refine pattern]";
					return { text };
				},
			};
		}
		if (tool === "ls") {
			const d = r.chance(0.4) ? "" : r.pick(P.files).split("/").slice(0, -1).join("/");
			const args = d ? { path: d } : {};
			return {
				args,
				result: () => {
					const pre = d ? `${d}/` : "";
					const ents = [
						...new Set(
							P.files
								.filter((f) => f.startsWith(pre))
								.map((f) => {
									const rest = f.slice(pre.length);
									const i = rest.indexOf("/");
									return i < 0 ? rest : rest.slice(0, i + 1);
								}),
						),
					];
					if (!d) ents.push(".gitignore", ".github/", r.pick(["node_modules/", "target/", ".venv/", "bin/"]));
					ents.sort();
					return { text: ents.length ? ents.join("\n") : "(empty directory)" };
				},
			};
		}
		// find
		const glob = r.pick([
			`**/*${{ ts: ".ts", py: ".py", rs: ".rs", go: ".go" }[P.lang]}`,
			`*${T.snake(r).split("_")[0]}*`,
			"**/*test*",
			"**/*.md",
		]);
		return {
			args: { pattern: glob },
			result: () => {
				const fs2 = P.files.filter(() => r.chance(0.35));
				return { text: fs2.length ? fs2.join("\n") : "No files found matching pattern" };
			},
		};
	}

	finalReply() {
		const r = this.r,
			T = this.G.T,
			P = this.P;
		const content = [];
		if (this.thinking !== "off" && r.chance(0.3)) content.push(this.thinkingBlock());
		const target = Math.min(40000, r.logn(1300, 0.85));
		const zh = this.zh && r.chance(0.9);
		const L = [];
		let len = 0;
		const add = (s) => {
			L.push(s);
			len += s.length * (zh ? 2 : 1);
		};
		add(zh ? T.zhParagraph(r, 1 + r.int(3)) : T.paragraph(r, 1 + r.int(3)));
		while (len < target) {
			const x = r.next();
			if (x < 0.25)
				add(
					`\n## ${
						zh
							? T.zhSentence(r)
									.slice(0, 4 + r.int(8))
									.replace(/[，。？]/g, "")
							: cap(T.words(r, 2 + r.int(3)))
					}\n`,
				);
			else if (x < 0.5) {
				const items = [];
				for (let i = 0, n = 2 + r.int(5); i < n; i++)
					items.push(
						r.chance(0.5)
							? `- **\`${srcFile(r, P)}\`**: ${zh ? T.zhSentence(r) : T.sentence(r)}`
							: `- ${zh ? T.zhSentence(r) : T.sentence(r)}`,
					);
				add(items.join("\n"));
			} else if (x < 0.68) add(`\`\`\`${LANG[P.lang].fence}\n${codeSnippet(P.lang, r, T, 2 + r.int(8), P)}\n\`\`\``);
			else if (x < 0.72)
				add(
					`| ${T.word(r)} | ${T.word(r)} | ${T.word(r)} |\n|---|---|---|\n${Array.from({ length: 2 + r.int(5) }, () => `| \`${T.camel(r)}\` | ${r.int(1000)} ms | ${T.words(r, 3)} |`).join("\n")}`,
				);
			else add(zh ? T.zhParagraph(r, 1 + r.int(4)) : T.paragraph(r, 1 + r.int(4)));
		}
		const text = L.join("\n\n");
		content.push({ type: "text", text });
		this.assistant(content, r.chance(0.01) ? "length" : "stop");
		return text;
	}
}

// ─────────────────────────────────────────── Driver ───────────────────────────────────────────

function makeGlobals(seed, agent = "pi") {
	const V = buildVocab(seed);
	const T = makeKit(V);
	const G = { seed, T, omp: agent === "omp", fileCache: new Map(), msgIndex: 0, ring: [], projects: null, projZ: null, stats: null };
	const r = new Rng(seedOf(seed, "projects"));
	const names = PROJECTS.slice();
	for (let i = names.length - 1; i > 0; i--) {
		const j = r.int(i + 1);
		[names[i], names[j]] = [names[j], names[i]];
	}
	const n = 20 + r.int(21);
	G.projects = names.slice(0, n).map(([name, lang]) => buildProject(name, lang, G));
	G.projZ = new Zipf(n, 0.9, 12);
	G.stats = {
		byKind: {},
		messages: 0,
		entries: 0,
		copiedEntries: 0,
		zhMessages: 0,
		forks: 0,
		branchedSessions: 0,
		compactedSessions: 0,
		compactions: 0,
		labels: 0,
		markers: MARKERS.map(() => ({ planted: 0, occurrences: 0 })),
		titled: 0,
		titleChanges: 0,
		sessionsWithTask: 0,
		taskCalls: 0,
	};
	return G;
}

function isOurs(out) {
	try {
		return JSON.parse(fs.readFileSync(path.join(out, "corpus.json"), "utf8")).generator === GENERATOR;
	} catch {
		return false;
	}
}

/**
 * Generate a corpus. Synchronous. Returns the summary (also written to `${out}/corpus.json`).
 * @param {{out: string, mb: number, seed?: number, agent?: "pi" | "omp", force?: boolean}} opts
 */
export function generateCorpus({ out, mb, seed = 42, agent = "pi", force = false }) {
	if (!out) throw new Error("generateCorpus: `out` is required");
	if (!(mb > 0)) throw new Error("generateCorpus: `mb` must be > 0");
	if (agent !== "pi" && agent !== "omp") throw new Error(`generateCorpus: \`agent\` must be "pi" or "omp", not ${JSON.stringify(agent)}`);
	const t0 = Date.now();
	const sessionsDir = path.join(out, "sessions");
	const archiveDir = path.join(out, "archive"); // omp: archive/sessions/<YYYY-MM>/*.jsonl.gz
	const ours = isOurs(out);
	for (const d of [sessionsDir, archiveDir]) {
		if (fs.existsSync(d) && fs.readdirSync(d).length) {
			if (!ours && !force) throw new Error(`${d} is not empty and ${out}/corpus.json was not written by this generator (use force)`);
			fs.rmSync(d, { recursive: true, force: true });
		}
	}
	fs.mkdirSync(sessionsDir, { recursive: true });
	const targetBytes = Math.round(mb * 1e6);
	const G = makeGlobals(seed >>> 0, agent);
	const omp = G.omp;
	const made = new Set();
	const mkdir = (dir) => {
		if (!made.has(dir)) {
			fs.mkdirSync(dir, { recursive: true });
			made.add(dir);
		}
	};
	let total = 0,
		files = 0,
		sessions = 0,
		minT = Infinity,
		maxT = -Infinity,
		largest = 0;
	let subagentFiles = 0,
		subagentBytes = 0,
		archivedFiles = 0,
		archivedBytes = 0,
		archivedCompressedBytes = 0;
	const sizes = [];
	const projectsUsed = new Set();
	for (let i = 0; total < targetBytes; i++) {
		const S = new Session(G, i);
		const remaining = targetBytes - total;
		S.run(Math.min(S.target, Math.max(remaining, 1500)));
		const text = `${S.lines.join("\n")}\n`;
		if (omp && S.archived) {
			const dir = path.join(archiveDir, "sessions", isoOf(S.startMs).slice(0, 7));
			mkdir(dir);
			const gz = gzipSync(text);
			fs.writeFileSync(path.join(dir, `${S.basename}.gz`), gz);
			archivedFiles++;
			archivedBytes += S.bytes;
			archivedCompressedBytes += gz.length;
		} else {
			const dir = path.join(sessionsDir, omp ? S.P.ompDir : S.P.dirName);
			mkdir(dir);
			fs.writeFileSync(path.join(dir, S.basename), text);
			if (omp && S.subs.length) {
				const sub = path.join(dir, S.basename.slice(0, -".jsonl".length));
				mkdir(sub);
				for (const a of S.subs) {
					fs.writeFileSync(path.join(sub, `${a.name}.jsonl`), a.text);
					subagentFiles++;
					subagentBytes += a.bytes;
					files++;
				}
			}
		}
		total += S.bytes + S.subBytes;
		files++;
		sessions++;
		sizes.push(S.bytes);
		largest = Math.max(largest, S.bytes);
		projectsUsed.add(S.P.name);
		for (const m of S.meta) {
			if (m.t < minT) minT = m.t;
			if (m.t > maxT) maxT = m.t;
		}
		// keep recent sessions as fork candidates (drop line text of very large ones to bound memory)
		if (!(omp && S.archived)) {
			G.ring.push(S);
			if (G.ring.length > 6) G.ring.shift();
		}
		S.r = null;
		S.subs = null;
	}
	sizes.sort((a, b) => a - b);
	const st = G.stats;
	const summary = {
		generator: GENERATOR,
		version: GEN_VERSION,
		seed: seed >>> 0,
		mb,
		agent,
		files,
		sessions,
		bytes: total,
		messages: st.messages,
		entries: st.entries,
		copiedEntries: st.copiedEntries,
		projects: projectsUsed.size,
		projectsDefined: G.projects.length,
		forks: st.forks,
		sessionsWithAbandonedBranch: st.branchedSessions,
		sessionsWithCompaction: st.compactedSessions,
		compactions: st.compactions,
		zhMessages: st.zhMessages,
		timeRange: { from: isoOf(minT), to: isoOf(maxT) },
		fileBytes: { min: sizes[0], median: sizes[sizes.length >> 1], mean: Math.round((total - subagentBytes) / sessions), max: largest },
		subagentFiles,
		subagentBytes,
		archivedFiles,
		archivedBytes,
		archivedCompressedBytes,
		titled: st.titled,
		titleChanges: st.titleChanges,
		sessionsWithTask: st.sessionsWithTask,
		taskCalls: st.taskCalls,
		bytesByKind: Object.fromEntries(Object.entries(st.byKind).sort((a, b) => b[1] - a[1])),
		markers: Object.fromEntries(
			MARKERS.map((m, i) => [
				m.term,
				{ every: m.every, offset: m.offset, planted: st.markers[i].planted, occurrences: st.markers[i].occurrences },
			]),
		),
		elapsedMs: Date.now() - t0,
	};
	fs.writeFileSync(path.join(out, "corpus.json"), `${JSON.stringify(summary, null, 2)}\n`);
	return summary;
}

function listJsonl(dir) {
	const out = [];
	const walk = (d) => {
		for (const e of fs.readdirSync(d, { withFileTypes: true })) {
			const p = path.join(d, e.name);
			if (e.isDirectory()) walk(p);
			else if (e.name.endsWith(".jsonl")) out.push(p);
		}
	};
	walk(dir);
	return out.sort();
}

/**
 * Append 1–3 valid entries (continuing the last entry's id chain) to `count` existing files chosen
 * deterministically from `dir` (a corpus dir containing sessions/, or a sessions dir itself).
 * Each appended user message contains the probe term `lookbackSyncProbe<seed>`.
 * @returns {number} total bytes appended
 */
export function appendToFiles({ dir, count = 10, seed = 1 }) {
	const root = fs.existsSync(path.join(dir, "sessions")) ? path.join(dir, "sessions") : dir;
	const all = listJsonl(root);
	const r = new Rng(seedOf("append", seed >>> 0));
	for (let i = all.length - 1; i > 0; i--) {
		const j = r.int(i + 1);
		[all[i], all[j]] = [all[j], all[i]];
	}
	const chosen = all.slice(0, Math.min(count, all.length)).sort();
	const G = { T: makeKit(buildVocab(seed >>> 0)) };
	const T = G.T;
	let appended = 0;
	for (const file of chosen) {
		const text = fs.readFileSync(file, "utf8");
		const lines = text.split("\n").filter((l) => l.trim());
		const ids = new Set();
		for (const m of text.matchAll(/"id":"([0-9a-f]{8})"/g)) ids.add(m[1]);
		let last = null,
			model = MODELS[0],
			zh = false;
		for (let i = lines.length - 1; i >= 1; i--) {
			let e;
			try {
				e = JSON.parse(lines[i]);
			} catch {
				continue;
			}
			if (!last && e.id) last = e;
			if (e.type === "message" && e.message.role === "assistant") {
				model = MODELS.find((m) => m.model === e.message.model) || {
					...MODELS[0],
					provider: e.message.provider,
					api: e.message.api,
					model: e.message.model,
				};
				zh = /[\u4e00-\u9fff]/.test(JSON.stringify(e.message.content).slice(0, 2000));
				break;
			}
		}
		if (!last) continue;
		let t = Math.max(Date.parse(last.timestamp), 0) + 60000 + r.int(600000);
		let leaf = last.id;
		const newId = () => {
			let id;
			do id = r.hex(8);
			while (ids.has(id));
			ids.add(id);
			return id;
		};
		const out = [];
		const add = (message) => {
			const id = newId();
			out.push(JSON.stringify({ type: "message", id, parentId: leaf, timestamp: isoOf(t), message }));
			leaf = id;
		};
		const n = 1 + r.int(3);
		const probe = `lookbackSyncProbe${seed >>> 0}`;
		const prompt = zh ? `${T.zhSentence(r)} ${probe}` : `${T.sentence(r)} ${probe}`;
		add({ role: "user", content: [{ type: "text", text: prompt }], timestamp: t });
		const usage = (o) => ({
			input: 10,
			output: o,
			cacheRead: 20000 + r.int(50000),
			cacheWrite: 500,
			totalTokens: 0,
			cost: { input: 0.00003, output: o * 0.000015, cacheRead: 0.01, cacheWrite: 0.0019, total: 0.0119 + o * 0.000015 },
		});
		if (n >= 2) {
			t += 3000 + r.int(20000);
			const callId = `toolu_01${r.b62(22)}`;
			const wantTool = n === 3;
			const content = wantTool
				? [
						{ type: "text", text: T.sentence(r) },
						{ type: "toolCall", id: callId, name: "bash", arguments: { command: "git status --short" } },
					]
				: [{ type: "text", text: zh ? T.zhParagraph(r, 3) : T.paragraph(r, 3) }];
			const u = usage(200 + r.int(800));
			u.totalTokens = u.input + u.output + u.cacheRead + u.cacheWrite;
			add({
				role: "assistant",
				content,
				api: model.api,
				provider: model.provider,
				model: model.model,
				usage: u,
				stopReason: wantTool ? "toolUse" : "stop",
				timestamp: t - 2500,
			});
			if (wantTool) {
				t += 200 + r.int(2000);
				add({
					role: "toolResult",
					toolCallId: callId,
					toolName: "bash",
					content: [{ type: "text", text: ` M ${T.kebab(r)}.ts\n M ${T.kebab(r)}.ts` }],
					isError: false,
					timestamp: t,
				});
			}
		}
		const chunk = `${(text.endsWith("\n") ? "" : "\n") + out.join("\n")}\n`;
		fs.appendFileSync(file, chunk);
		appended += byteLen(chunk);
	}
	return appended;
}

// ─────────────────────────────────────────── CLI ───────────────────────────────────────────

function parseArgs(argv) {
	const a = {};
	for (let i = 0; i < argv.length; i++) {
		const k = argv[i];
		if (!k.startsWith("--")) continue;
		const name = k.slice(2);
		if (name === "force") a.force = true;
		else a[name] = argv[++i];
	}
	return a;
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
	const a = parseArgs(process.argv.slice(2));
	try {
		if (a.append) {
			const t0 = Date.now();
			const bytes = appendToFiles({ dir: a.append, count: Number(a.count ?? 10), seed: Number(a.seed ?? 1) });
			console.log(JSON.stringify({ appendedBytes: bytes, elapsedMs: Date.now() - t0 }));
		} else if (a.out && a.mb) {
			const s = generateCorpus({ out: a.out, mb: Number(a.mb), seed: Number(a.seed ?? 42), agent: a.agent ?? "pi", force: !!a.force });
			console.log(JSON.stringify(s));
		} else {
			console.error(
				"usage: node bench/gen-corpus.mjs --out DIR --mb 50 [--seed 42] [--agent pi|omp] [--force]\n       node bench/gen-corpus.mjs --append DIR [--count 10] [--seed 1]",
			);
			process.exit(2);
		}
	} catch (err) {
		console.error(`gen-corpus: ${err instanceof Error ? err.message : String(err)}`);
		process.exit(1);
	}
}
