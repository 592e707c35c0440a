// Builds the files long-lived hosts start or load at run time: dist/indexer.js, the indexer process of the Pi and
// omp extension, `lookback serve` and `lookback mcp` (src/node/indexer.ts), and dist/extension-tool.cjs, the half of
// the extension a search needs, which Pi loads natively rather than through its jiti (src/extension/tool-loader.ts).
// Run by `npm run build`, and alone by `prepare`, so that a clone after `npm ci` has them: Pi loads the extension
// from source, but the indexer runs in a Node of its own, which cannot run TypeScript. Where esbuild is missing (an
// install without devDependencies) it says so; the hosts then work from the sources, more slowly.

import { fileURLToPath } from "node:url";

export const common = {
	bundle: true,
	platform: "node",
	format: "esm",
	target: "node20",
	sourcemap: true,
	logLevel: "warning",
};

export async function buildHostFiles() {
	const { build } = await import("esbuild");
	await build({ ...common, entryPoints: ["src/indexer.ts"], outfile: "dist/indexer.js" });
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
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	try {
		await import("esbuild");
	} catch {
		console.warn("lookback: esbuild is not installed: dist/indexer.js and dist/extension-tool.cjs not built; hosts work from the sources");
		process.exit(0);
	}
	await buildHostFiles();
}
