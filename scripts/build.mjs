// Builds dist/: the CLI and the library for Node (ESM), and the files long-lived hosts run (build-host.mjs). The engine
// (wasm/dist) is not bundled: it is loaded at run time from the package's wasm/ folder and checked against its
// checksums.

import { chmodSync } from "node:fs";
import { build } from "esbuild";
import { buildHostFiles, common } from "./build-host.mjs";

// The bin is a launcher that starts Node again with the flag the command line needs (src/cli.ts); the
// command line itself is dist/cli-main.js beside it.
await build({ ...common, entryPoints: ["src/cli.ts"], outfile: "dist/cli.js", external: ["./cli-main.js"] });
await build({ ...common, entryPoints: ["src/cli-main.ts"], outfile: "dist/cli-main.js" });
await build({ ...common, entryPoints: ["src/index.ts"], outfile: "dist/index.js" });
await buildHostFiles();
chmodSync("dist/cli.js", 0o755);
