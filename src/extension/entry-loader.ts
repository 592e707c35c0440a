/** Loads entry-parts.ts: its bundle (dist/extension-entry.cjs) where it is current, else the sources. */

import { loadBundle } from "./bundle-loader.js";
import type * as EntryParts from "./entry-parts.js";

export function loadEntryParts(): Promise<typeof EntryParts> {
	return loadBundle("extension-entry.cjs", () => import("./entry-parts.js"));
}
