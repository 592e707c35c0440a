// Builds dist/: the CLI and the library for Node (ESM), and the files long-lived hosts run (build-host.mjs). The engine
// (wasm/dist) is not bundled: it is loaded at run time from the package's wasm/ folder and checked against its
// checksums.

import { chmodSync, readdirSync, rmSync } from "node:fs";
import { build } from "esbuild";
import { buildHostFiles, common } from "./build-host.mjs";
import { mcpWithoutAjv } from "./esbuild-plugins.mjs";

// The bin sets V8's flags for the kind of command before anything else loads (src/cli.ts); the command line itself
// is dist/cli-main.js beside it.
await build({ ...common, entryPoints: ["src/cli.ts"], outfile: "dist/cli.js", external: ["./cli-main.js"] });
// Split into chunks, so that a command loads only its own code: a search does not parse the MCP SDK, the export's
// markdown or the secret rules (more than half of the 1.6 MB one bundle had; 15 ms of each start on Node 20). The
// chunks lie beside the entry, so that paths taken from `import.meta.url` (the engine, the viewer, the indexer)
// stay as they are; a chunk of an earlier build is removed.
for (const name of readdirSync("dist")) if (/^cli-.+-[A-Z0-9]{8}\.js(\.map)?$/.test(name)) rmSync(`dist/${name}`);
await build({
	...common,
	entryPoints: ["src/cli-main.ts"],
	outdir: "dist",
	splitting: true,
	chunkNames: "cli-[name]-[hash]",
	plugins: [mcpWithoutAjv],
});
await build({ ...common, entryPoints: ["src/index.ts"], outfile: "dist/index.js" });
await buildHostFiles();
chmodSync("dist/cli.js", 0o755);
