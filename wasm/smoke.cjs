// Smoke check of the engine build (run by hand after wasm/build.sh, not part of the test suite):
//   node wasm/smoke.cjs [dir]        dir defaults to wasm/dist
// Loads sql-wasm.cjs with the wasm bytes, checks SQLite's version, the FTS5 features lookback needs, the exports
// beyond stock sql.js, and prints the wasm import functions a project-side filesystem or lock hook looks for.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const assert = require("node:assert/strict");

const dir = path.resolve(process.argv[2] ?? path.join(__dirname, "dist"));
const initSqlJs = require(path.join(dir, "sql-wasm.cjs"));
const wasmBinary = fs.readFileSync(path.join(dir, "sql-wasm.wasm"));

// The glue's import functions, found by their (unminified) JS names; the import keys themselves are minified.
const WANTED = [
	"___syscall_fcntl64",
	"_fd_sync",
	"___syscall_ioctl",
	"___syscall_open",
	"___syscall_openat",
	"_fd_read",
	"_fd_write",
	"_fd_seek",
	"___syscall_ftruncate64",
];
const imports = { modules: [], byName: {} };
const calls = { fcntl: {}, fd_sync: 0 };

(async () => {
	const SQL = await initSqlJs({
		wasmBinary,
		instantiateWasm(info, receiveInstance) {
			imports.modules = Object.keys(info);
			for (const [mod, fields] of Object.entries(info)) {
				for (const [key, fn] of Object.entries(fields)) {
					if (typeof fn !== "function") continue;
					imports.byName[fn.name] = `${mod}.${key}`;
					if (fn.name === "___syscall_fcntl64")
						fields[key] = function (fd, cmd, varargs) {
							calls.fcntl[cmd] = (calls.fcntl[cmd] ?? 0) + 1;
							return fn.call(this, fd, cmd, varargs);
						};
					if (fn.name === "_fd_sync")
						fields[key] = function (fd) {
							calls.fd_sync++;
							return fn.call(this, fd);
						};
				}
			}
			WebAssembly.instantiate(wasmBinary, info).then((r) => receiveInstance(r.instance, r.module));
			return {};
		},
	});
	const db = new SQL.Database();
	const q = (sql) => db.exec(sql).flatMap((r) => r.values);

	const [[version]] = q("select sqlite_version()");
	assert.equal(version, "3.52.0");

	db.run(`create virtual table t using fts5(x, tokenize='unicode61 remove_diacritics 2')`);
	db.run(`insert into t values ('Crème brûlée at the café'), ('the quick brown fox')`);
	assert.deepEqual(q(`select rowid from t where t match 'cafe'`), [[1]]);

	db.run(`create virtual table g using fts5(x, tokenize='trigram')`);
	db.run(`insert into g values ('lookback'), ('wasmbuild'), ('sqlite-fts5')`);
	assert.deepEqual(q(`select x from g where g match 'ook'`), [["lookback"]]);
	assert.deepEqual(q(`select x from g where x like '%build%'`), [["wasmbuild"]]);

	db.run(`create virtual table c using fts5(x, content='', contentless_delete=1)`);
	db.run(`insert into c(rowid, x) values (1, 'fox one'), (2, 'fox two'), (3, 'hound')`);
	db.run(`delete from c where rowid = 2`);
	assert.deepEqual(q(`select rowid from c where c match 'fox'`), [[1]]);
	assert.deepEqual(q(`select x from c where rowid = 1`), [[null]]);

	assert.deepEqual(q(`select sqrt(16), replicate('ab', 2)`), [[4, "abab"]]); // extension-functions.c

	// Emscripten FS.
	const FS = SQL.FS;
	for (const name of ["mount", "unmount", "mkdir", "createNode", "ErrnoError", "lookupPath", "open", "close", "readFile", "writeFile"]) {
		assert.equal(typeof FS?.[name], "function", `FS.${name}`);
	}
	const memfsFile = FS.filesystems.MEMFS.ops_table.file;
	assert.equal(typeof memfsFile.stream.llseek, "function", "MEMFS stream_ops.llseek (unminified)");
	assert.equal(typeof memfsFile.node.getattr, "function", "MEMFS node_ops.getattr (unminified)");

	// Exports beyond stock sql.js: open an existing file in place with sqlite3_open_v2, read extended error codes.
	FS.writeFile("/smoke.db", db.export());
	const open = SQL.cwrap("sqlite3_open_v2", "number", ["string", "number", "number", "string"]);
	const pp = SQL._malloc(4);
	assert.equal(open("/smoke.db", pp, 0x01 /* READONLY */, null), 0);
	const handle = SQL.getValue ? SQL.getValue(pp, "i32") : SQL.HEAP32[pp >>> 2];
	const execRc = SQL.cwrap("sqlite3_exec", "number", ["number", "string", "number", "number", "number"])(
		handle,
		"insert into t values ('x')",
		0,
		0,
		0,
	);
	assert.equal(execRc, 8); // SQLITE_READONLY
	assert.equal(SQL._sqlite3_extended_errcode(handle), 8);
	assert.equal(SQL._sqlite3_close_v2(handle), 0);
	assert.equal(open("/missing.db", pp, 0x01, null), 14); // SQLITE_CANTOPEN
	SQL._free(pp);

	const compileOptions = q("pragma compile_options").map((r) => r[0]);
	assert.ok(compileOptions.includes("ENABLE_FTS5"));
	db.close();

	console.log("sqlite_version", version);
	console.log("FTS5 unicode61 remove_diacritics 2, trigram (MATCH + LIKE), contentless_delete=1: ok");
	console.log(
		"SQL.FS:",
		Object.keys(FS).length,
		"members; MEMFS node_ops:",
		Object.keys(memfsFile.node).join(","),
		"stream_ops:",
		Object.keys(memfsFile.stream).join(","),
	);
	console.log(
		"sqlite3_open_v2 + sqlite3_extended_errcode: ok; Module.HEAP8/HEAP32:",
		typeof SQL.HEAP8,
		typeof SQL.HEAP32,
		"getValue:",
		typeof SQL.getValue,
	);
	console.log("instantiateWasm import modules:", JSON.stringify(imports.modules));
	for (const name of WANTED) console.log(`  ${name.padEnd(24)} ${imports.byName[name] ?? "(not imported)"}`);
	console.log(
		"all imports:",
		Object.entries(imports.byName)
			.map(([n, k]) => `${n}=${k}`)
			.join(" "),
	);
	console.log("fcntl calls by cmd during the run:", JSON.stringify(calls.fcntl), "fd_sync calls:", calls.fd_sync);
	console.log("compile_options:", compileOptions.join(" "));
})().catch((e) => {
	console.error("SMOKE FAILED", e);
	process.exit(1);
});
