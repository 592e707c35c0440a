// npm run bench:export [-- --mb 20 --sessions 5]
// Export and redaction on the benchmark corpus (bench/corpus/<mb>mb, generated once): the largest sessions
// exported as Markdown, HTML and JSON with redaction (long messages read whole from their files) and without,
// and redaction alone over all of their text, in MB of session file (or of text) per second. The secrets found
// are counted (work that must not change between runs); the synthetic corpus holds none, so a block of planted
// ones is added to each text redacted alone. Writes bench/out/export-<mb>mb.json and prints a table.
import { closeSync, mkdirSync, openSync, readSync, statSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { core, fileSource, LookbackIndex, loadEngine } from "../dist/index.js";
import { benchCorpus } from "./corpus.mjs";

const argv = process.argv.slice(2);
const opt = (name, def) => {
	const i = argv.indexOf(`--${name}`);
	return i >= 0 ? argv[i + 1] : def;
};
const mb = Number(opt("mb", "20"));
const count = Number(opt("sessions", "5"));
mkdirSync("bench/out", { recursive: true });

const readRange = (path, start, end) => {
	const fd = openSync(path, "r");
	try {
		const bytes = new Uint8Array(end - start);
		return readSync(fd, bytes, 0, bytes.length, start) === bytes.length ? bytes : undefined;
	} finally {
		closeSync(fd);
	}
};

const { dir } = benchCorpus(mb, { seed: 42 });
const index = await LookbackIndex.open({ sql: await loadEngine(), storage: core.memoryStorage() });
await index.sync(fileSource([{ path: resolve(dir, "sessions"), layout: "nested" }]));
const largest = index
	.browse({ limit: 1000, scope: "all" })
	.map((s) => ({ ...s, bytes: statSync(s.path).size }))
	.sort((a, b) => b.bytes - a.bytes)
	.slice(0, count);
const fileMB = largest.reduce((n, s) => n + s.bytes, 0) / 1e6;

const rows = [];
for (const format of core.EXPORT_FORMATS)
	for (const redact of [true, false]) {
		const t = performance.now();
		let out = 0;
		for (const s of largest) out += (await core.exportSession(index, s.path, { format, branch: "all", redact, readRange })).content.length;
		const seconds = (performance.now() - t) / 1000;
		rows.push({ what: `export ${format}${redact ? "" : " --no-redact"}`, seconds, mbPerSecond: fileMB / seconds, outputChars: out });
	}

// Redaction alone: every message's whole text, with a block of planted secrets in each session's text.
const planted = [
	"aws_secret_access_key = q8Hk2VbN7xP0wLmE4rT6yU1iO9aS3dF5gJ7hK2lZ",
	`ghp_${"a1B2c3D4e5".repeat(4).slice(0, 36)}`,
	"postgres://app:pg-s3cret-pw@db.internal:5432/shop",
	"SMTP_PASSWORD=correct-horse",
].join("\n");
const texts = largest.flatMap((s) => [...index.readTree(s.path, { readRange }).messages.map((m) => m.text), planted]);
const textMB = texts.reduce((n, t) => n + t.length, 0) / 1e6;
const tally = {};
const t = performance.now();
for (const text of texts) core.redactText(text, tally);
const seconds = (performance.now() - t) / 1000;
rows.push({ what: `redactText over ${texts.length} messages`, seconds, mbPerSecond: textMB / seconds, found: tally });

const result = { date: new Date().toISOString(), mb, sessions: largest.length, fileMB, textMB, rows };
writeFileSync(`bench/out/export-${mb}mb.json`, `${JSON.stringify(result, null, 2)}\n`);
console.log(
	`export of the ${largest.length} largest sessions of the ${mb} MB corpus (${fileMB.toFixed(1)} MB of files, ${textMB.toFixed(1)} MB of text)`,
);
for (const r of rows)
	console.log(`${r.what.padEnd(34)} ${r.seconds.toFixed(2).padStart(7)} s  ${r.mbPerSecond.toFixed(1).padStart(6)} MB/s`);
console.log(`secrets found by redactText: ${JSON.stringify(tally)}`);
index.close();
