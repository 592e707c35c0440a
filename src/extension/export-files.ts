/**
 * The overlay's export: the picked session written as HTML (to open or send) and Markdown (to paste), redacted,
 * into `exports/` beside the index (private); the person is told where. Each file is written beside its name and
 * renamed, so an interrupted export never leaves half a file.
 */

import { dirname, join } from "node:path";
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { errorMessage, exportSession } from "../core/index.js";
import type { NodeIndex } from "../node/open.js";
import { makePrivateDir, writePrivateFile } from "../node/private-files.js";
import { notify } from "./notify.js";
import type { OverlayRow } from "./overlay-results.js";

/** Where the overlay's exports go: `exports/` beside the index (in the data folder for the default one). */
function exportsDir(opened: NodeIndex): string {
	return join(dirname(opened.indexPath), "exports");
}

export async function exportFiles(opened: NodeIndex, row: OverlayRow, ctx: ExtensionContext): Promise<void> {
	try {
		const dir = exportsDir(opened);
		makePrivateDir(dir);
		const written: string[] = [];
		let secrets = 0;
		for (const format of ["html", "md"] as const) {
			const file = await exportSession(opened.index, row.path, { format, branch: "all", readRange: opened.files.readRange });
			const path = join(dir, file.fileName);
			writePrivateFile(path, file.content);
			written.push(path);
			secrets = Object.values(file.document.redactions).reduce((n, c) => n + c, 0);
		}
		const redacted = secrets > 0 ? `${secrets} secret${secrets === 1 ? "" : "s"} redacted` : "no secret found to redact";
		notify(ctx, `lookback: exported "${row.title}" (${redacted}) to ${written.join(" and ")}`, "info");
	} catch (error) {
		notify(ctx, `lookback: could not export "${row.title}": ${errorMessage(error)}`, "error");
	}
}
