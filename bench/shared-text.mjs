// node bench/shared-text.mjs [--mb 50] [--agents codex,claude]
// How much of an index is boilerplate many sessions share (sync/shared-text.ts), and what storing each shared
// block once would save: the benchmark's Pi corpus written in each agent's format (agent-corpus.mjs, which gives
// the sessions their harness's injected text), indexed with the wasm engine; the shared blocks' stored bytes
// (deflated as their entries keep them) against the index's size.
import { mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { chooseEngine, fileSource, fileStorage, LookbackIndex } from "../dist/index.js";
import { agentCorpus } from "./agent-corpus.mjs";
import { namedArgs } from "./args.mjs";
import { benchCorpus } from "./corpus.mjs";

/** src/core/sync/hash.ts's keyHash, which names a block in text_blocks. */
function keyHash(key) {
	let h1 = 0x811c9dc5;
	let h2 = 0x01000193;
	for (let i = 0; i < key.length; i++) {
		const c = key.charCodeAt(i);
		h1 = Math.imul(h1 ^ c, 0x01000193);
		h2 = Math.imul(h2 ^ c, 0x5bd1e995);
	}
	return (h1 >>> 0) * 2 ** 21 + ((h2 >>> 0) >>> 11);
}

const args = namedArgs(process.argv.slice(2));
const mb = Number(args.mb ?? 50);
const agents = (args.agents ?? "codex,claude").split(",");
const { dir } = benchCorpus(mb);
mkdirSync(join("bench", "out"), { recursive: true });
const sql = await chooseEngine("wasm");
const lines = [`Shared boilerplate at ${mb} MB of the benchmark's sessions in each agent's format`, ""];
lines.push(
	"| agent | index | text_blocks rows | shared blocks | families holding them | entries holding them | their stored bytes | stored once | saved |",
);
lines.push("|---|---|---|---|---|---|---|---|---|");
for (const agent of agents) {
	const corpus = await agentCorpus(dir, agent);
	const path = join("bench", "out", `shared-${mb}mb-${agent}.db`);
	for (const f of [path, `${path}-journal`, `${path}.locks`]) rmSync(f, { force: true, recursive: true });
	const index = await LookbackIndex.open({ sql, storage: fileStorage(path) });
	await index.sync(fileSource([{ path: corpus.root, layout: corpus.layout, agent }]));
	const rows = (q, p = []) => {
		const r = index.db.exec(q, p)[0];
		return r ? r.values : [];
	};
	const blockRows = Number(rows("SELECT count(*) FROM text_blocks")[0][0]);
	const shared = rows("SELECT hash, count(DISTINCT family) AS f, count(*) AS s FROM text_blocks GROUP BY hash HAVING f >= 3");
	const hashes = new Set(shared.map((r) => Number(r[0])));
	// Each shared block's deflated size, once, and how many entries hold it.
	let entries = 0;
	let bytes = 0;
	let once = 0;
	const seen = new Set();
	for (const [body] of rows("SELECT body FROM entries WHERE role IN ('user','meta') AND body IS NOT NULL")) {
		const text = typeof body === "string" ? body : inflateRawSync(body).toString("utf8");
		let holds = false;
		for (const part of text.split(/\n[ \t]*\n/)) {
			const block = part.trim();
			if (block.length < 200) continue;
			const hash = keyHash(block);
			if (!hashes.has(hash)) continue;
			holds = true;
			const size = deflateRawSync(block).length;
			bytes += size;
			if (!seen.has(hash)) {
				seen.add(hash);
				once += size;
			}
		}
		if (holds) entries++;
	}
	index.close();
	const size = statSync(path).size;
	const families = shared.reduce((n, r) => n + Number(r[1]), 0);
	const mbOf = (b) => `${(b / 1e6).toFixed(2)} MB`;
	lines.push(
		`| ${agent} | ${mbOf(size)} | ${blockRows} | ${shared.length} | ${families} | ${entries} | ${mbOf(bytes)} | ${mbOf(once)} | ${mbOf(bytes - once)} (${((100 * (bytes - once)) / size).toFixed(1)}% of the index) |`,
	);
}
console.log(lines.join("\n"));
