/** `lookback export SESSION`: the session as Markdown, HTML or JSON on stdout or into a file, secrets redacted unless `--no-redact`. */

import {
	EXPORT_FORMATS,
	type ExportFormat,
	exportSession,
	isExportFormat,
	LookbackError,
	type LookbackIndex,
	type ReadRange,
	terminalSafe,
	terminalSafeJson,
} from "../core/index.js";
import { writePrivateFile } from "../node/private-files.js";
import { option, type ParsedArgs } from "./args.js";

export interface ExportRun {
	args: ParsedArgs;
	index: LookbackIndex;
	/** The session reference, checked against the roots when it is a path. */
	ref: string;
	/** Reads long messages whole: from the session file, or for a gone session its copy in lookback's archive. */
	readRange?: ReadRange;
	stdout(text: string): void;
	stderr(text: string): void;
}

/** The format asked for, else the one `--out`'s extension names, else Markdown. */
function formatOf(args: ParsedArgs): ExportFormat {
	const asked = option(args, "format");
	if (asked !== undefined) {
		if (!isExportFormat(asked))
			throw new LookbackError("bad-argument", `--format must be one of ${EXPORT_FORMATS.join(", ")}, not "${asked}"`);
		return asked;
	}
	const ext = option(args, "out")
		?.match(/\.([a-z]+)$/i)?.[1]
		.toLowerCase();
	return ext === "htm" ? "html" : isExportFormat(ext) ? ext : "md";
}

export async function runExport(run: ExportRun): Promise<number> {
	const branch = option(run.args, "branch") ?? "active";
	if (branch !== "active" && branch !== "all") throw new LookbackError("bad-argument", `--branch must be active or all, not "${branch}"`);
	const redact = !run.args.flags.has("no-redact");
	const file = await exportSession(run.index, run.ref, { format: formatOf(run.args), branch, redact, readRange: run.readRange });
	const out = option(run.args, "out");
	if (out === undefined) {
		// To stdout, which is a terminal as often as not: a session's escapes shown, never acted on (a file keeps them).
		run.stdout(file.mimeType.includes("json") ? terminalSafeJson(file.content) : terminalSafe(file.content));
		return 0;
	}
	// Written beside (private, under a random name) and renamed: an interrupted export never leaves half a file where a whole one was.
	writePrivateFile(out, file.content);
	const found = Object.values(file.document.redactions).reduce((n, c) => n + c, 0);
	const messages = file.document.branches.reduce((n, b) => n + b.messages.length, 0);
	run.stderr(
		`lookback: wrote ${out} (${messages} messages; ${redact ? `${found} secret${found === 1 ? "" : "s"} redacted` : "not redacted"})\n`,
	);
	return 0;
}
