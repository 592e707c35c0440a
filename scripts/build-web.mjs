// Builds the browser pieces into dist/web: the viewer and the smoke page's bundles, and the engine's wasm beside them.
import { build } from "esbuild";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
mkdirSync("dist/web", { recursive: true });
for (const name of ["smoke", "app"]) await build({
	entryPoints: [`web/src/${name}.ts`],
	outfile: `dist/web/${name}.js`,
	bundle: true,
	platform: "browser",
	format: "esm",
	target: "es2022",
	// The Emscripten glue mentions Node modules it only uses under Node.
	external: ["fs", "path", "crypto"],
	logLevel: "warning",
});
copyFileSync("wasm/dist/sql-wasm.wasm", "dist/web/sql-wasm.wasm");
copyFileSync("web/public/index.html", "dist/web/index.html");
writeFileSync("dist/web/smoke.html", '<!doctype html><meta charset="utf-8"><title>lookback smoke</title><script type="module" src="/smoke.js"></script>\n');
