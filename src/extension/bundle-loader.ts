/**
 * Loads a part of the extension from its bundle in dist/ with Node's own `require` where the bundle is there and
 * current, else from the sources through the host's loader (Pi's jiti; Bun, which loads TypeScript as fast). Pi
 * runs every module it loads through jiti, which resolves and transforms each one: tens of milliseconds for a
 * handful of files, at every start. The bundles are CommonJS, loaded by `require`: code that jiti loads runs in
 * a vm script, where Node refuses a native `import()` (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING) and jiti would take
 * over any other.
 */

import { createRequire } from "node:module";
import { builtFile } from "../node/built-files.js";

const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";

export async function loadBundle<T>(name: string, fromSources: () => Promise<T>): Promise<T> {
	const bundle = isBun ? undefined : builtFile(name);
	if (bundle) {
		try {
			return createRequire(import.meta.url)(bundle) as T;
		} catch {
			// a host where Node's own require cannot run here: the sources, as the host loads them
		}
	}
	return fromSources();
}
