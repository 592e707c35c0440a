/**
 * Loads tool-entry.ts on first use: its bundle (dist/extension-tool.cjs) with Node's own loader where it is there
 * and current, else the sources through the host's loader (Pi's jiti; Bun, which loads TypeScript as fast). The
 * bundle is CommonJS, loaded by `require`: code that jiti loads runs in a vm script, where Node refuses a native
 * `import()` (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING) and jiti would take over any other.
 */

import { createRequire } from "node:module";
import { builtFile } from "../node/built-files.js";
import type * as Tool from "./tool-entry.js";

type ToolModule = typeof Tool;

const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";

let loading: Promise<ToolModule> | undefined;

export function loadTool(): Promise<ToolModule> {
	loading ??= (async () => {
		const bundle = isBun ? undefined : builtFile("extension-tool.cjs");
		if (bundle) {
			try {
				return createRequire(import.meta.url)(bundle) as ToolModule;
			} catch {
				// a host where Node's own require cannot run here: the sources, as the host loads them
			}
		}
		return import("./tool-entry.js");
	})();
	return loading;
}
