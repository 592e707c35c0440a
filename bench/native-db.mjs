// The subset of the sql.js API lookback uses, over native SQLite (better-sqlite3), so the very same core
// code (schema, indexer, search) runs on both engines and the benchmark compares engines, not programs.
import { renameSync } from "node:fs";
import { createRequire } from "node:module";

// Loaded on first use: Bun runs the benchmark worker too, and it cannot load better-sqlite3's addon.
let Database;
const load = () => (Database ??= createRequire(import.meta.url)("better-sqlite3"));

class NativeStatement {
	constructor(stmt) {
		this.stmt = stmt;
		this.params = [];
		this.iter = undefined;
		this.row = undefined;
	}
	bind(params = []) {
		this.params = params;
		this.iter = undefined;
		return true;
	}
	step() {
		try {
			return this.stepOnce();
		} catch (error) {
			// better-sqlite3 says what went wrong, not where: name the statement.
			throw new Error(`${error.message}: ${this.stmt.source.replace(/\s+/g, " ").slice(0, 200)}`);
		}
	}
	stepOnce() {
		if (!this.stmt.reader) {
			this.stmt.run(...this.params);
			return false;
		}
		this.iter ??= this.stmt.iterate(...this.params);
		const next = this.iter.next();
		this.row = next.done ? undefined : next.value;
		if (next.done) this.iter = undefined;
		return !next.done;
	}
	getAsObject() {
		return this.row;
	}
	run(params = []) {
		if (this.stmt.reader) this.stmt.all(...params);
		else this.stmt.run(...params);
	}
	reset() {
		this.iter?.return?.();
		this.iter = undefined;
	}
	free() {
		this.reset();
	}
}

export class NativeDatabase {
	constructor(bytes, path) {
		const Db = load();
		this.db = path ? new Db(path) : bytes ? new Db(Buffer.from(bytes)) : new Db(":memory:");
	}
	run(sql, params) {
		if (params && params.length > 0) {
			const stmt = this.db.prepare(sql);
			if (stmt.reader) stmt.all(...params);
			else stmt.run(...params);
		} else this.db.exec(sql);
		return this;
	}
	exec(sql) {
		const stmt = this.db.prepare(sql);
		if (!stmt.reader) {
			stmt.run();
			return [];
		}
		const columns = stmt.columns().map((c) => c.name);
		const values = stmt.raw().all();
		return values.length > 0 ? [{ columns, values }] : [];
	}
	prepare(sql) {
		return new NativeStatement(this.db.prepare(sql));
	}
	export() {
		return new Uint8Array(this.db.serialize());
	}
	close() {
		this.db.close();
	}
}

/** Stands in for the initialised sql.js module. */
export const nativeSql = { Database: NativeDatabase };

/** The index file opened in place by native SQLite (one process: the baseline takes no lookback locks). */
export function nativeFileStorage(path) {
	return {
		describe: () => path,
		open: () => new NativeDatabase(undefined, path),
		replaced: () => false,
		isBusy: (error) => /locked|busy/i.test(String(error?.message)),
		async setAside() {
			const aside = `${path}.unusable`;
			renameSync(path, aside);
			return aside;
		},
	};
}
