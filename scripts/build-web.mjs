// Builds the browser pieces into dist/web: the smoke page's bundle and the engine's wasm beside it.
import { build } from "esbuild";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
mkdirSync("dist/web", { recursive: true });
await build({
	entryPoints: ["web/src/smoke.ts"],
	outfile: "dist/web/smoke.js",
	bundle: true,
	platform: "browser",
	format: "esm",
	target: "es2022",
	// The Emscripten glue mentions Node modules it only uses under Node.
	external: ["fs", "path", "crypto"],
	logLevel: "warning",
});
copyFileSync(require.resolve("fts5-sql-bundle/dist/sql-wasm.wasm"), "dist/web/sql-wasm.wasm");
writeFileSync("dist/web/smoke.html", '<!doctype html><meta charset="utf-8"><title>lookback smoke</title><script type="module" src="/smoke.js"></script>\n');
