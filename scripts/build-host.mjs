// Builds the files long-lived hosts start or load at run time: dist/indexer.js, the indexer process of the Pi and
// omp extension, `lookback serve` and `lookback mcp` (src/node/indexer.ts), and dist/extension-tool.cjs, the half of
// the extension a search needs, which Pi loads natively rather than through its jiti (src/extension/tool-loader.ts).
// Run by `npm run build` (no `prepare`: npm warns of an install script in the tarball): Pi loads the extension
// from source, but the indexer runs in a Node of its own, which cannot run TypeScript. Where esbuild is missing (an
// install without devDependencies) it says so; the hosts then work from the sources, more slowly.

import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

export const common = {
	bundle: true,
	platform: "node",
	format: "esm",
	target: "node20",
	sourcemap: true,
	logLevel: "warning",
};

// The same for what the extension's entry registers with (src/extension/entry-parts.ts: parameters, host index),
// which Pi would otherwise run through jiti module by module at every start. The tool's half stays its own
// bundle, loaded on the first search. The dynamic imports left out are what a host runs only where dist/ is
// missing (the tool's sources, the engine opened in the host, the indexer's work in the host's process): bundled,
// they would carry the engine, the parsers and the index into every start (test/extension/load-cost.test.ts).
export const ENTRY_BUNDLE = {
	...common,
	format: "cjs",
	entryPoints: ["src/extension/entry-parts.ts"],
	outfile: "dist/extension-entry.cjs",
	external: ["@mariozechner/*", "./tool-entry.js", "./open.js", "./indexer-work.js"],
	define: { "import.meta.url": "importMetaUrl" },
	banner: { js: 'const importMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
};

export async function buildHostFiles() {
	const { build } = await import("esbuild");
	await build({ ...common, entryPoints: ["src/indexer.ts"], outfile: "dist/indexer.js" });
	// secretlint's rule preset, bundled: lookback's sources load it from here where it is not installed (it is a
	// devDependency, so that an install pulls in no package whose engines want Node 22; src/core/redact/secretlint.ts).
	await build({
		...common,
		entryPoints: [createRequire(import.meta.url).resolve("@secretlint/secretlint-rule-preset-recommend")],
		outfile: "dist/secretlint-preset.js",
		sourcemap: false,
	});
	// The worker threads that read a remote team's shards (src/node/team/remote-worker.ts).
	await build({ ...common, entryPoints: ["src/remote-worker.ts"], outfile: "dist/remote-worker.js" });
	// CommonJS, so that Pi's jiti-loaded code can `require` it (src/extension/tool-loader.ts); `import.meta.url` of the
	// sources (the engine's folder) becomes the bundle's own. Pi's packages stay out: the tool's half imports none.
	await build({
		...common,
		format: "cjs",
		entryPoints: ["src/extension/tool-entry.ts"],
		outfile: "dist/extension-tool.cjs",
		external: ["@mariozechner/*"],
		define: { "import.meta.url": "importMetaUrl" },
		banner: { js: 'const importMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
	});
	await build(ENTRY_BUNDLE);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	try {
		await import("esbuild");
	} catch {
		console.warn("lookback: esbuild is not installed: dist/indexer.js and dist/extension-*.cjs not built; hosts work from the sources");
		process.exit(0);
	}
	await buildHostFiles();
}
