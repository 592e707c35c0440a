/**
 * sql.js's Statement moves strings and blobs between JS and the wasm heap one byte at a time in JS: a string
 * read scans for its NUL in a JS loop, a bound string is encoded into a JS array of numbers and copied element by
 * element, a blob is copied in a loop. Under the optimising compiler that is cheap; a one-shot command runs without
 * it (src/node/quick-start.ts), where those loops were most of reading 1,300 session rows (30 of 40 ms). Here the
 * same three methods go through SQLite's own lengths and the platform's TextDecoder, TextEncoder and a heap slice.
 * Only an engine with sql.js's glue (our wasm build) is changed; the host's built-in SQLite has its own statements.
 */

import type { Database, SqlJsStatic } from "sql.js";

/** The parts of our build's Emscripten module the three methods use (all exported by wasm/build.sh). */
interface Glue {
	HEAPU8: Uint8Array;
	_malloc(size: number): number;
	_sqlite3_column_text(stmt: number, col: number): number;
	_sqlite3_column_blob(stmt: number, col: number): number;
	_sqlite3_column_bytes(stmt: number, col: number): number;
	_sqlite3_bind_text(stmt: number, col: number, ptr: number, bytes: number, destructor: number): number;
}

/** The sql.js Statement's own state the methods read and write. */
interface GlueStatement {
	stmt: number;
	pos: number;
	allocatedmem: number[];
	db: { handleError(code: number): unknown };
	getString(pos?: number): string;
	getBlob(pos?: number): Uint8Array;
	bindString(value: string, pos?: number): boolean;
}

const patched = new WeakSet<object>();
const decoder = new TextDecoder();
const encoder = new TextEncoder();

function hasGlue(module: unknown): module is Glue {
	const m = module as Partial<Record<keyof Glue, unknown>>;
	return (
		m.HEAPU8 instanceof Uint8Array &&
		typeof m._malloc === "function" &&
		typeof m._sqlite3_column_text === "function" &&
		typeof m._sqlite3_column_blob === "function" &&
		typeof m._sqlite3_column_bytes === "function" &&
		typeof m._sqlite3_bind_text === "function"
	);
}

/** The column a call names, or the next one (sql.js's convention when `pos` is left out). */
function column(s: GlueStatement, pos: number | undefined): number {
	if (pos !== undefined && pos !== null) return pos;
	const at = s.pos;
	s.pos += 1;
	return at;
}

/**
 * Replace the byte loops of the module's Statement (once per module; anything else is left as it is). `db` is any
 * open database of the module: its statements' prototype is the one replaced.
 */
export function speedUpGlue(SQL: SqlJsStatic, db: Database): void {
	const M: unknown = SQL;
	if (patched.has(SQL) || !hasGlue(M)) return;
	const stmt = db.prepare("SELECT 1");
	const proto = Object.getPrototypeOf(stmt) as Partial<GlueStatement>;
	stmt.free();
	patched.add(SQL);
	if (typeof proto.getString !== "function" || typeof proto.getBlob !== "function" || typeof proto.bindString !== "function") return;
	// Pointers are read unsigned: the heap may grow past 2 GB (wasm/build.sh: MAXIMUM_MEMORY=4GB). HEAPU8 is read
	// after every call that may allocate, since a grown heap replaces it.
	proto.getString = function (this: GlueStatement, pos?: number): string {
		const col = column(this, pos);
		// Text first, then its length: SQLite's documented order (the text call may convert the value).
		const ptr = M._sqlite3_column_text(this.stmt, col) >>> 0;
		if (ptr === 0) return "";
		const bytes = M._sqlite3_column_bytes(this.stmt, col);
		return decoder.decode(M.HEAPU8.subarray(ptr, ptr + bytes));
	};
	proto.getBlob = function (this: GlueStatement, pos?: number): Uint8Array {
		const col = column(this, pos);
		const ptr = M._sqlite3_column_blob(this.stmt, col) >>> 0;
		const bytes = M._sqlite3_column_bytes(this.stmt, col);
		return ptr === 0 ? new Uint8Array(0) : M.HEAPU8.slice(ptr, ptr + bytes);
	};
	proto.bindString = function (this: GlueStatement, value: string, pos?: number): boolean {
		const col = column(this, pos);
		// At most three bytes of UTF-8 per UTF-16 unit, and the NUL sql.js's own copy ends with.
		const room = value.length * 3 + 1;
		const ptr = M._malloc(room) >>> 0;
		this.allocatedmem.push(ptr);
		const { written } = encoder.encodeInto(value, M.HEAPU8.subarray(ptr, ptr + room));
		M.HEAPU8[ptr + written] = 0;
		this.db.handleError(M._sqlite3_bind_text(this.stmt, col, ptr, written, 0));
		return true;
	};
}
