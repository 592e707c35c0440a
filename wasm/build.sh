#!/usr/bin/env bash
# Builds lookback's SQLite engine: sql.js 1.13.0's API + SQLite 3.52.0 + FTS5, Emscripten FS exported, no closure.
#
#   wasm/build.sh           build from scratch into wasm/dist (sql-wasm.cjs, sql-wasm.wasm, SHA256SUMS)
#   wasm/build.sh --check   build into a temporary directory and compare with the committed wasm/dist
#
# Needs: Debian's emscripten 3.1.6 (installed with apt-get when emcc is missing), node, npm (for the SQLite source).
# Inputs: wasm/vendor/sqljs-1.13.0 (vendored), sqlite3@6.0.1 from npm (its deps/sqlite-autoconf-3520000.tar.gz,
# sha256-checked). Everything is compiled from a scratch directory with relative paths, so the output does not
# depend on where the repository lives.
set -euo pipefail

MODE=build
case "${1:-}" in
	"") ;;
	--check) MODE=check ;;
	*) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VENDOR=$HERE/vendor/sqljs-1.13.0
CACHE=$HERE/.cache
DIST=$HERE/dist

SQLITE_NPM=sqlite3@6.0.1
SQLITE_NPM_TGZ=sqlite3-6.0.1.tgz
SQLITE_DIR=sqlite-autoconf-3520000
SQLITE_SHA256=f6b50b0c103392af32a8be15b2b9d25959de9a00a70c3979128aafeaa5338b3f
EMSCRIPTEN_EXPECTED=3.1.6

# sql.js's Makefile (SQLITE_COMPILATION_FLAGS) + FTS5.
CFLAGS=(-Oz -DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_DISABLE_LFS -DSQLITE_ENABLE_FTS3 -DSQLITE_ENABLE_FTS3_PARENTHESIS
	-DSQLITE_THREADSAFE=0 -DSQLITE_ENABLE_NORMALIZE -DSQLITE_ENABLE_FTS5)
# sql.js's Makefile (EMFLAGS + EMFLAGS_WASM + EMFLAGS_OPTIMIZED) without --closure; STACK_SIZE is TOTAL_STACK in 3.1.6.
LDFLAGS=(-sRESERVED_FUNCTION_POINTERS=64 -sALLOW_TABLE_GROWTH=1
	-sEXPORTED_FUNCTIONS=@exported_functions.json -sEXPORTED_RUNTIME_METHODS=@exported_runtime_methods.json
	-sSINGLE_FILE=0 -sNODEJS_CATCH_EXIT=0 -sNODEJS_CATCH_REJECTION=0 -sTOTAL_STACK=5MB
	-sWASM=1 -sALLOW_MEMORY_GROWTH=1 -Oz -flto)
# Beyond stock sql.js. 3.1.6's default MAXIMUM_MEMORY is 2GB; 4GB makes emcc emit `>>> 0` on pointers in the JS glue
# (sql.js's api.js included), so pointers above 2GB work (checked on Node 20 with the heap grown to 4GB).
LDFLAGS+=(-sMAXIMUM_MEMORY=4GB)
EXTRA_FUNCTIONS='["_sqlite3_open_v2","_sqlite3_extended_errcode"]'
EXTRA_RUNTIME_METHODS='["FS"]'

log() { echo "build.sh: $*" >&2; }

# 1. Toolchain.
if ! command -v emcc >/dev/null; then
	log "emcc not found: installing Debian's emscripten"
	SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
	$SUDO apt-get update
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y emscripten
fi
# Debian's emscripten needs node-acorn from /usr/share/nodejs, which a NodeSource node does not search.
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
EMVER=$(emcc --version | head -1 | sed -n 's/.* \([0-9][0-9.]*\) .*/\1/p')
if [ "$EMVER" != "$EMSCRIPTEN_EXPECTED" ]; then
	log "warning: emcc $EMVER, the committed build was made with $EMSCRIPTEN_EXPECTED (Debian 12's emscripten 3.1.6~dfsg-5): output will differ"
fi

# 2. SQLite source, from the npm registry.
mkdir -p "$CACHE"
if [ ! -f "$CACHE/$SQLITE_DIR.tar.gz" ]; then
	log "fetching $SQLITE_NPM"
	(cd "$CACHE" && npm pack "$SQLITE_NPM" --silent >/dev/null)
	tar -xzf "$CACHE/$SQLITE_NPM_TGZ" -C "$CACHE" --strip-components=2 "package/deps/$SQLITE_DIR.tar.gz"
	rm -f "$CACHE/$SQLITE_NPM_TGZ"
fi
echo "$SQLITE_SHA256  $CACHE/$SQLITE_DIR.tar.gz" | sha256sum -c --quiet - || {
	log "sha256 mismatch for $CACHE/$SQLITE_DIR.tar.gz"; exit 1; }

# 3. Scratch directory: vendored sql.js files + the SQLite amalgamation, compiled with relative paths.
if [ "$MODE" = check ]; then
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/lookback-wasm.XXXXXX")
	trap 'rm -rf "$WORK"' EXIT
	OUT=$WORK/out
else
	WORK=$CACHE/build
	OUT=$DIST
	rm -rf "$WORK"
fi
mkdir -p "$WORK/b" "$OUT"
cp -R "$VENDOR/." "$WORK/b/sqljs"
tar -xzf "$CACHE/$SQLITE_DIR.tar.gz" -C "$WORK/b" "$SQLITE_DIR/sqlite3.c" "$SQLITE_DIR/sqlite3.h" "$SQLITE_DIR/sqlite3ext.h"
cd "$WORK/b"
# sql.js's export lists + ours (appended, order kept).
merge_list() {
	node -e '
		const [, base, extra, out] = process.argv, fs = require("fs");
		const list = JSON.parse(fs.readFileSync(base, "utf8"));
		for (const name of JSON.parse(extra)) if (!list.includes(name)) list.push(name);
		fs.writeFileSync(out, JSON.stringify(list, null, 1) + "\n");
	' -- "$@"
}
merge_list sqljs/src/exported_functions.json "$EXTRA_FUNCTIONS" exported_functions.json
merge_list sqljs/src/exported_runtime_methods.json "$EXTRA_RUNTIME_METHODS" exported_runtime_methods.json

# 4. Compile, link, wrap (as sql.js's Makefile does for dist/sql-wasm.js).
log "compiling SQLite $SQLITE_DIR with emcc $EMVER"
emcc "${CFLAGS[@]}" -c "$SQLITE_DIR/sqlite3.c" -o sqlite3.o &
c1=$!
emcc "${CFLAGS[@]}" -I"$SQLITE_DIR" -c sqljs/extension-functions.c -o extension-functions.o &
c2=$!
wait $c1; wait $c2
log "linking"
emcc "${LDFLAGS[@]}" sqlite3.o extension-functions.o --pre-js sqljs/src/api.js -o sql-wasm.js
cat sqljs/src/shell-pre.js sql-wasm.js sqljs/src/shell-post.js > "$OUT/sql-wasm.cjs"
cp sql-wasm.wasm "$OUT/sql-wasm.wasm"
chmod 644 "$OUT/sql-wasm.cjs" "$OUT/sql-wasm.wasm"
cd "$OUT"
sha256sum sql-wasm.cjs sql-wasm.wasm > SHA256SUMS

# The glue must not carry paths of the machine that built it.
if grep -n -F -e "$WORK" -e "$HERE" sql-wasm.cjs >&2; then log "absolute build path in sql-wasm.cjs"; exit 1; fi

if [ "$MODE" = check ]; then
	if cmp -s SHA256SUMS "$DIST/SHA256SUMS" && (cd "$DIST" && sha256sum -c --quiet SHA256SUMS); then
		log "check ok: a fresh build matches wasm/dist"
		cat SHA256SUMS
	else
		log "check FAILED: a fresh build differs from wasm/dist"
		echo "fresh build:" >&2; cat SHA256SUMS >&2
		echo "wasm/dist/SHA256SUMS:" >&2; cat "$DIST/SHA256SUMS" >&2 || true
		exit 1
	fi
else
	rm -rf "$WORK"
	log "wrote wasm/dist"
	ls -l sql-wasm.cjs sql-wasm.wasm >&2
	cat SHA256SUMS
fi
