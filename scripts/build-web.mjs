// Builds the browser pieces: into dist/web the viewer page (its first script, boot.js, and app.js), its worker, its service worker, the smoke page, and the
// engine's wasm beside them; and dist/browser.js, the `lookback/web` library entry.

import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { build } from "esbuild";
import { secretlintInBrowser } from "./esbuild-plugins.mjs";

mkdirSync("dist/web", { recursive: true });
/** app.js imports the page's worker from boot.js, which index.html loads first (web/src/page-db.ts says why). */
const bootExternal = {
	name: "boot-external",
	setup(build) {
		build.onResolve({ filter: /^\.\/page-db\.js$/ }, (args) =>
			args.importer.endsWith("app.tsx") ? { path: "./boot.js", external: true } : undefined,
		);
	},
};

for (const [name, entry] of [
	["smoke", "smoke.ts"],
	["boot", "page-db.ts"],
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
		plugins: [secretlintInBrowser, bootExternal],
		logLevel: "warning",
	});
copyFileSync("wasm/dist/sql-wasm.wasm", "dist/web/sql-wasm.wasm");
copyFileSync("web/public/index.html", "dist/web/index.html");
// The page's style, then uPlot's (the usage chart), in one file the page's CSP allows.
writeFileSync(
	"dist/web/app.css",
	`${readFileSync("web/public/app.css", "utf8")}\n${readFileSync("node_modules/uplot/dist/uPlot.min.css", "utf8")}\n`,
);
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
