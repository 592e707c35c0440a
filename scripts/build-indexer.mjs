// Builds dist/indexer.js, the indexer process that the Pi and omp extension, `lookback serve` and `lookback
// mcp` start (src/node/indexer.ts finds it by file name). Run by `npm run build`, and alone by `prepare`, so
// that a clone after `npm ci` has it: Pi loads the extension from source, but the indexer runs in a Node of
// its own, which cannot run TypeScript. Where esbuild is missing (an install without devDependencies) it says
// so and leaves the hosts to index in their own process.

import { fileURLToPath } from "node:url";

export const common = {
	bundle: true,
	platform: "node",
	format: "esm",
	target: "node20",
	sourcemap: true,
	logLevel: "warning",
};

export async function buildIndexer() {
	const { build } = await import("esbuild");
	await build({ ...common, entryPoints: ["src/node/indexer-child.ts"], outfile: "dist/indexer.js" });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	try {
		await import("esbuild");
	} catch {
		console.warn("lookback: esbuild is not installed, dist/indexer.js not built: hosts will index in their own process");
		process.exit(0);
	}
	await buildIndexer();
}
