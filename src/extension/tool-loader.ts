/** Loads tool-entry.ts on first use: its bundle (dist/extension-tool.cjs) where it is current, else the sources. */

import { loadBundle } from "./bundle-loader.js";
import type * as Tool from "./tool-entry.js";

let loading: Promise<typeof Tool> | undefined;

export function loadTool(): Promise<typeof Tool> {
	loading ??= loadBundle("extension-tool.cjs", () => import("./tool-entry.js"));
	return loading;
}
