// Emits the TypeScript declarations of the two entries (`lookback`, `lookback/web`) into dist/types, afresh so
// that a module renamed or removed leaves no stale declaration behind.
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { createRequire } from "node:module";

rmSync("dist/types", { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { stdio: "inherit" });
