// Builds dist/: the CLI and the library for Node (ESM). The engine package stays external: its
// Emscripten glue needs require() and finds its wasm beside itself.
import { build } from "esbuild";
import { chmodSync } from "node:fs";

const common = {
	bundle: true,
	platform: "node",
	format: "esm",
	target: "node20",
	external: ["fts5-sql-bundle"],
	sourcemap: true,
	logLevel: "warning",
};

await build({ ...common, entryPoints: ["src/cli.ts"], outfile: "dist/cli.js" });
await build({ ...common, entryPoints: ["src/index.ts"], outfile: "dist/index.js" });
chmodSync("dist/cli.js", 0o755);
