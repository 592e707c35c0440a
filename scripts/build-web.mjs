// Builds the browser pieces: into dist/web the viewer page, its worker, its service worker, the smoke page, and the
// engine's wasm beside them; and dist/browser.js, the `lookback/web` library entry.

import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { build } from "esbuild";
import { secretlintInBrowser } from "./esbuild-plugins.mjs";

mkdirSync("dist/web", { recursive: true });
for (const [name, entry] of [
	["smoke", "smoke.ts"],
	["app", "app.tsx"],
	["worker", "worker.ts"],
	["sw", "sw.ts"],
])
	await build({
		entryPoints: [`web/src/${entry}`],
		outfile: `dist/web/${name}.js`,
		bundle: true,
		minify: name !== "smoke",
		platform: "browser",
		format: "esm",
		target: "es2022",
		jsx: "automatic",
		jsxImportSource: "preact",
		// The Emscripten glue mentions Node modules it only uses under Node.
		external: ["fs", "path", "crypto"],
		plugins: [secretlintInBrowser],
		logLevel: "warning",
	});
copyFileSync("wasm/dist/sql-wasm.wasm", "dist/web/sql-wasm.wasm");
copyFileSync("web/public/index.html", "dist/web/index.html");
copyFileSync("web/public/app.css", "dist/web/app.css");
writeFileSync(
	"dist/web/smoke.html",
	'<!doctype html><meta charset="utf-8"><title>lookback smoke</title><script type="module" src="/smoke.js"></script>\n',
);

// The library entry leaves its dependencies to the user's bundler (one copy of each), and bundles only our code
// and the engine's glue; the wasm is the package's wasm/dist/sql-wasm.wasm (export `lookback/sql-wasm.wasm`).
await build({
	entryPoints: ["web/src/index.ts"],
	outfile: "dist/browser.js",
	bundle: true,
	packages: "external",
	platform: "browser",
	format: "esm",
	target: "es2022",
	external: ["fs", "path", "crypto"],
	sourcemap: true,
	logLevel: "warning",
});
