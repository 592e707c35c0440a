/** Odd and broken session files: each is indexed as far as it is sound, counted, and never stops the rest. */
import { closeSync, ftruncateSync, mkdirSync, openSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { LookbackIndex, memoryStorage, type SessionSource } from "../../src/core/index.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileSource } from "../../src/node/file-source.js";
import { tempDir } from "../helpers.js";

const header = (id: string, extra: object = {}) =>
	JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-11-01T10:00:00Z", cwd: `/home/dev/${id}`, ...extra });
const msg = (id: string, parentId: string | null, text: string, role = "user") =>
	JSON.stringify({
		type: "message",
		id,
		parentId,
		timestamp: "2026-11-01T10:00:01Z",
		message: { role, content: [{ type: "text", text }], timestamp: 0 },
	});

function folder(): string {
	const root = join(tempDir("hostile"), "sessions");
	mkdirSync(join(root, "--home-dev-x--"), { recursive: true });
	return root;
}

async function sync(root: string, wrap?: (s: SessionSource) => SessionSource) {
	const index = await LookbackIndex.open({ sql: await loadEngine(), storage: memoryStorage() });
	const base = fileSource([{ path: root, layout: "nested" }]);
	const report = await index.sync(wrap ? wrap(base) : base);
	const found = (q: string) => index.search({ query: q }).results.map((r) => r.sessionId);
	return { index, report, found };
}

/** One odd file: what is wrong with it, the word of its sound part that must be found, and its malformed lines. */
interface OddFile {
	name: string;
	why: string;
	content: string | Buffer;
	/** A word only its sound part holds (none: nothing in it is sound). */
	finds?: string;
	malformedLines: number;
}

const ODD_FILES: OddFile[] = [
	{
		name: "bom-crlf",
		why: "a byte-order mark and CRLF line ends",
		content: `\ufeff${header("bom-crlf")}\r\n${msg("a1", null, "carriage returns okapi")}\r\n`,
		finds: "okapi",
		malformedLines: 0,
	},
	{
		name: "bad-utf8",
		why: "bytes that are not UTF-8 inside a string",
		content: Buffer.concat([
			Buffer.from(
				`${header("bad-utf8")}\n{"type":"message","id":"a1","parentId":null,"message":{"role":"user","content":"broken bytes quetzal `,
			),
			Buffer.from([0xff, 0xfe, 0xc3]),
			Buffer.from(' end"}}\n'),
		]),
		finds: "quetzal",
		malformedLines: 0,
	},
	{
		name: "nul",
		why: "an escaped NUL in text, and a raw NUL breaking a line",
		content: `${header("nul")}\n${msg("a1", null, "escaped nul \\u0000 ibex")}\n{"type":"message"\u0000 raw nul}\n`,
		finds: "ibex",
		malformedLines: 1,
	},
	{
		name: "deep",
		why: "a line nested 200,000 levels deep",
		content: `${header("deep")}\n${"[".repeat(200_000)}${"]".repeat(200_000)}\n${msg("a1", null, "after deep nesting tapir")}\n`,
		finds: "tapir",
		malformedLines: 1,
	},
	{
		name: "late-header",
		why: "the header after the first entry",
		content: `${msg("a1", null, "before the header gecko")}\n${header("late-header")}\n`,
		finds: "gecko",
		malformedLines: 0,
	},
	{
		name: "dupes-cycle",
		why: "a parent cycle and a duplicate entry id",
		content: `${header("dupes-cycle")}\n${msg("a", "c", "cycle one heron")}\n${msg("b", "a", "cycle two")}\n${msg("c", "b", "cycle three")}\n${msg("a", "missing", "duplicate id heron")}\n`,
		finds: "heron",
		malformedLines: 0,
	},
	{
		name: "unknown",
		why: "an entry type Pi does not have",
		content: `${header("unknown")}\n{"type":"hologram","id":"h1","parentId":null,"payload":1}\n${msg("m1", "h1", "after unknown type lynx")}\n`,
		finds: "lynx",
		malformedLines: 0,
	},
	{ name: "empty", why: "no bytes at all", content: "", malformedLines: 0 },
	{ name: "garbage", why: "no JSON at all", content: "not json at all\n\u0000\u0001\n", malformedLines: 2 },
];

describe("hostile transcripts", () => {
	describe("odd files, indexed together: each as far as it is sound, its malformed lines counted", () => {
		let synced: Awaited<ReturnType<typeof sync>>;
		beforeAll(async () => {
			const root = folder();
			for (const f of ODD_FILES) writeFileSync(join(root, "--home-dev-x--", `2026-11-01T10-00-00-000Z_${f.name}.jsonl`), f.content);
			synced = await sync(root);
		});

		it("reads every file, warns of nothing, and counts every malformed line", () => {
			expect(synced.report.filesSeen).toBe(ODD_FILES.length);
			expect(synced.report.warnings).toEqual([]);
			expect(synced.report.malformedLines).toBe(ODD_FILES.reduce((n, f) => n + f.malformedLines, 0));
		});

		it.each(ODD_FILES)("$name: $why", (f) => {
			const row = synced.index.db.exec(`SELECT malformed FROM sessions WHERE path LIKE '%\\_${f.name}.jsonl' ESCAPE '\\'`)[0];
			expect(row?.values[0][0] ?? 0).toBe(f.malformedLines);
			if (f.finds) expect(synced.found(f.finds)).toEqual([f.name]);
		});
	});

	it("skips a file with a single 100 MB line by its size, without reading it", async () => {
		const root = folder();
		const path = join(root, "--home-dev-x--", "huge.jsonl");
		const fd = openSync(path, "w");
		ftruncateSync(fd, 100 * 1024 * 1024);
		closeSync(fd);
		writeFileSync(join(root, "--home-dev-x--", "ok.jsonl"), `${header("ok")}\n${msg("a", null, "still indexed marmot")}\n`);
		const { report, found } = await sync(root);
		expect(report.skipped.oversized).toBe(1);
		expect(report.bytesRead).toBeLessThan(1000);
		expect(found("marmot")).toEqual(["ok"]);
	});

	it("survives a file deleted or truncated between the walk and the read", async () => {
		const root = folder();
		const dir = join(root, "--home-dev-x--");
		for (const name of ["gone", "cut", "fine"])
			writeFileSync(
				join(dir, `${name}.jsonl`),
				`${header(name)}\n${msg("a", null, `first ${name} wapiti`)}\n${msg("b", "a", `second ${name} wapiti`)}\n`,
			);
		const { report, found, index } = await sync(root, (s) => ({
			...s,
			async read(path, start, end) {
				if (path.endsWith("gone.jsonl")) {
					const { rmSync } = await import("node:fs");
					rmSync(path);
				}
				if (path.endsWith("cut.jsonl")) truncateSync(path, 120);
				return s.read(path, start, end);
			},
		}));
		expect(report.skipped.unreadable).toBe(1);
		expect(found("wapiti").sort()).toEqual(["fine"]);
		expect(index.stats().sessions).toBe(2); // "cut" kept its header; its half line waits for the next sync
		expect(report.pendingBytes).toBeGreaterThan(0);
	});
});

describe("paths and limits", () => {
	it("never reads outside the roots: a symlink out and a symlink loop in a session folder are skipped", async () => {
		const { symlinkSync } = await import("node:fs");
		const root = folder();
		const dir = join(root, "--home-dev-x--");
		const outside = join(tempDir("outside"), "secret.jsonl");
		writeFileSync(outside, `${header("secret")}\n${msg("a", null, "outside the roots narwhal")}\n`);
		symlinkSync(outside, join(dir, "link-out.jsonl"));
		symlinkSync(join(dir, "loop-b.jsonl"), join(dir, "loop-a.jsonl"));
		symlinkSync(join(dir, "loop-a.jsonl"), join(dir, "loop-b.jsonl"));
		writeFileSync(join(dir, "ok.jsonl"), `${header("ok")}\n${msg("a", null, "inside okapi")}\n`);
		const { report, found } = await sync(root);
		expect(found("narwhal")).toEqual([]);
		expect(found("okapi")).toEqual(["ok"]);
		expect(report.skipped.unreadable).toBe(3);
		expect(report.skippedFiles.map((f) => f.detail).join(" ")).toMatch(/refusing .*link-out\.jsonl.*not inside the session folders/);
	});

	it("refuses to load an index larger than the engine can hold, naming the limit", async () => {
		const { memoryStorage } = await import("../../src/core/index.js");
		const storage = memoryStorage(new Uint8Array(5000));
		await expect(LookbackIndex.open({ sql: await loadEngine(), storage, maxLoadBytes: 4096 })).rejects.toThrow(
			/the index memory is 0\.00 GB; the in-memory engine holds at most 0\.00 GB/,
		);
	});
});
