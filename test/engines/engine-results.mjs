// What one engine answers on an index, as JSON, for the cross-engine test (run by Node 20, Node 22 or Bun).
//   engine-results.mjs ENGINE INDEX SESSIONS sync|no-sync
import { chooseEngine, fileSource, fileStorage, LookbackIndex } from "../../dist/index.js";

const [engine, indexPath, sessions, mode] = process.argv.slice(2);
const sql = await chooseEngine(engine);
const index = await LookbackIndex.open({ sql, storage: fileStorage(indexPath) });
// One batch whatever the machine's load: the file's size depends on how many commits a sync makes.
const report = mode === "sync" ? await index.sync(fileSource([{ path: sessions, layout: "nested" }]), { batchMs: 60_000 }) : undefined;
const queries = [
	"retry queue",
	"tateSto",
	"死锁",
	"批量",
	"RabbitMQ OR amqplib",
	'"database is locked"',
	"deadLetter*",
	"queue -RabbitMQ",
	"why did we pick sql.js",
	"webhook backoff",
	"(flaky OR restarts) tsx",
];
// The file's size depends on how the work fell into batches (a timed budget): not a result.
const { generation: _g, lastSync: _l, indexBytes: _b, ...stats } = index.stats();
const first = index.browse({ limit: 50 });
const result = {
	engine: index.engine,
	added: report?.added,
	entries: report?.entriesIndexed,
	searches: queries.map((query) => index.search({ query, limit: 20 })),
	filtered: index.search({ query: "queue", project: "webshop", since: "2026-10-05", role: ["assistant"] }),
	browse: first,
	read: first.slice(0, 3).map((s) => index.read(s.sessionId)),
	stats,
};
index.close();
process.stdout.write(`${JSON.stringify(result)}\n`);
