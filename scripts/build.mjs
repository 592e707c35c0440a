// Builds dist/: the CLI and the library for Node (ESM). The engine (wasm/dist) is not bundled: it is
// loaded at run time from the package's wasm/ folder and checked against its checksums.

import { chmodSync } from "node:fs";
import { build } from "esbuild";

const common = {
	bundle: true,
	platform: "node",
	format: "esm",
	target: "node20",
	sourcemap: true,
	logLevel: "warning",
};

await build({ ...common, entryPoints: ["src/cli.ts"], outfile: "dist/cli.js" });
await build({ ...common, entryPoints: ["src/index.ts"], outfile: "dist/index.js" });
// The indexer thread of `lookback mcp`, loaded by file name beside dist/cli.js (src/mcp/sync-call.ts).
await build({ ...common, entryPoints: ["src/mcp/sync-worker.ts"], outfile: "dist/mcp-sync-worker.js" });
chmodSync("dist/cli.js", 0o755);
