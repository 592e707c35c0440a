// A separate process that writes an OpenCode database as OpenCode does (WAL mode, commit after commit), for the
// test that lookback reads it safely meanwhile. Its WAL is checkpointed every 32 pages (OpenCode's SQLite: 1,000),
// so the WAL is copied into the main file and restarts (new salts) again and again under the reader.
// node opencode-writer.mjs DB SESSION COMMITS
import { closeSync, constants, fstatSync, fsyncSync, openSync, readSync, statSync, truncateSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { core, loadEngine } from "../../dist/index.js";

const [path, session, commitsText] = process.argv.slice(2);
const dir = dirname(path);
const at = (name) => (name === "" ? dir : join(dir, name));
/** The engine's files in the database's folder (as src/node/host-files.ts, which the package does not export). */
const files = {
	stat(name) {
		const st = statSync(at(name), { throwIfNoEntry: false });
		return st ? { size: st.size, ino: st.ino, mtimeMs: st.mtimeMs, isDirectory: st.isDirectory() } : undefined;
	},
	open(name, mode) {
		if (name === "") return openSync(dir, "r");
		let flags = mode.write ? constants.O_RDWR : constants.O_RDONLY;
		if (mode.create) flags |= constants.O_CREAT;
		if (mode.truncate) flags |= constants.O_TRUNC;
		return openSync(at(name), flags, 0o644);
	},
	close: (h) => closeSync(h),
	read: (h, into, offset, length, position) => readSync(h, into, offset, length, position),
	write: (h, from, offset, length, position) => writeSync(h, from, offset, length, position),
	size: (h) => fstatSync(h).size,
	truncate: (name, size) => truncateSync(at(name), size),
	sync: (h) => {
		try {
			fsyncSync(h);
		} catch {}
	},
	create: (name) => closeSync(openSync(at(name), constants.O_CREAT | constants.O_WRONLY, 0o644)),
	unlink: (name) => unlinkSync(at(name)),
};
const engine = await loadEngine();
const mountpoint = core.mountEngineFiles(engine.FS, files, `writer:${dir}`, { reads: 0, bytesRead: 0, writes: 0, fsyncs: 0 });
const db = core.openAt(engine, `${mountpoint}/${basename(path)}`);
db.run("PRAGMA locking_mode = EXCLUSIVE");
db.run("PRAGMA journal_mode = WAL");
db.run("PRAGMA wal_autocheckpoint = 32");
const filler = "the beaver builds a dam of words ".repeat(60);
for (let i = 0; i < Number(commitsText); i++) {
	const now = 1_796_100_000_000 + i;
	const message = `msg_writer${String(i).padStart(5, "0")}`;
	db.run("BEGIN");
	db.run("INSERT INTO message(id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)", [
		message,
		session,
		now,
		now,
		JSON.stringify({ role: "user", time: { created: now } }),
	]);
	db.run("INSERT INTO part(id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)", [
		`prt_writer${String(i).padStart(5, "0")}`,
		message,
		session,
		now,
		now,
		JSON.stringify({ type: "text", text: `beaver${i} ${filler}` }),
	]);
	db.run("UPDATE session SET time_updated = ? WHERE id = ?", [now, session]);
	db.run("COMMIT");
	if (i % 10 === 0) process.stdout.write(`${i}\n`);
	await new Promise((resolve) => setTimeout(resolve, 5));
}
db.close();
process.stdout.write("done\n");
