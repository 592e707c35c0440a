/**
 * Export: a session as a readable conversation in Markdown, self-contained HTML or JSON, secrets redacted
 * unless asked not to. A shaping module over what `LookbackIndex.readTree` reads; the CLI, the viewer and the
 * overlay only pick the session, the format and where the file goes.
 */

import { LookbackError } from "../errors.js";
import type { LookbackIndex } from "../lookback.js";
import type { ReadRange } from "../search/search.js";
import { type DocumentOptions, type ExportDocument, exportDocument } from "./document.js";
import { exportHtml } from "./html.js";
import { exportMarkdown } from "./markdown.js";

export type { ExportBranch, ExportBranchChoice, ExportDocument, ExportMessage } from "./document.js";
export { assistantParts, firstArgument, type ToolCall } from "./message-parts.js";
export { safeMarkdown } from "./safe-markdown.js";

export const EXPORT_FORMATS = ["md", "html", "json"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const MIME: Record<ExportFormat, string> = {
	md: "text/markdown; charset=utf-8",
	html: "text/html; charset=utf-8",
	json: "application/json; charset=utf-8",
};

export interface ExportOptions extends DocumentOptions {
	format: ExportFormat;
	/** Reads part of a session file, so that long messages are exported whole (without it: the index's head and tail). */
	readRange?: ReadRange;
}

export interface ExportFile {
	content: string;
	mimeType: string;
	/** A file name for it: the title's first words and the session id's start. */
	fileName: string;
	document: ExportDocument;
}

export function isExportFormat(value: unknown): value is ExportFormat {
	return typeof value === "string" && (EXPORT_FORMATS as readonly string[]).includes(value);
}

function fileName(doc: ExportDocument, format: ExportFormat): string {
	const words = doc.session.title
		.toLowerCase()
		.normalize("NFKD")
		.replace(/[^a-z0-9]+/g, "-")
		.replace(/^-+|-+$/g, "")
		.slice(0, 48)
		.replace(/-[^-]*$/, (tail) => (tail.length > 1 ? tail : ""));
	const id = doc.session.sessionId.replace(/[^0-9a-zA-Z-]/g, "").slice(0, 8);
	return `${[words || "session", id].filter(Boolean).join("-")}.${format}`;
}

/** A session (id, unique id prefix or indexed path) exported. @throws LookbackError session-not-found, bad-argument. */
export async function exportSession(index: LookbackIndex, ref: string, options: ExportOptions): Promise<ExportFile> {
	if (!isExportFormat(options.format))
		throw new LookbackError(
			"bad-argument",
			`the export format must be one of ${EXPORT_FORMATS.join(", ")}, not "${String(options.format)}"`,
		);
	if (options.branch !== undefined && options.branch !== "active" && options.branch !== "all")
		throw new LookbackError("bad-argument", `the branch to export must be "active" or "all", not "${String(options.branch)}"`);
	const tree = index.readTree(ref, { readRange: options.readRange });
	const document = await exportDocument(tree, options);
	const content =
		options.format === "json"
			? `${JSON.stringify(document, null, 2)}\n`
			: options.format === "md"
				? exportMarkdown(document)
				: await exportHtml(document);
	return { content, mimeType: MIME[options.format], fileName: fileName(document, options.format), document };
}
