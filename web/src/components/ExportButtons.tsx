/**
 * The reader's download: the session as Markdown, HTML or JSON, its secrets redacted, made by the worker (the
 * core's export, long messages read whole where the session files can be read) and saved by the browser.
 */

import { useState } from "preact/hooks";
import type { ExportBranchChoice, ExportFormat } from "../../../src/core/index.js";

export interface ExportedFile {
	content: string;
	fileName: string;
	mimeType: string;
	redacted: number;
}

interface Props {
	/** Make the file (the worker's export call). */
	exportAs(format: ExportFormat, branch: ExportBranchChoice): Promise<ExportedFile>;
	/** Whether the session has other branches than the one the agent resumes. */
	branched: boolean;
}

const FORMATS: [ExportFormat, string][] = [
	["md", "Markdown"],
	["html", "HTML"],
	["json", "JSON"],
];

function save(file: ExportedFile): void {
	const url = URL.createObjectURL(new Blob([file.content], { type: file.mimeType }));
	const a = document.createElement("a");
	a.href = url;
	a.download = file.fileName;
	a.click();
	setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function ExportButtons({ exportAs, branched }: Props) {
	const [all, setAll] = useState(false);
	const [state, setState] = useState("");
	const run = async (format: ExportFormat) => {
		setState("exporting…");
		try {
			const file = await exportAs(format, all ? "all" : "active");
			save(file);
			setState(
				`${file.fileName}: ${file.redacted > 0 ? `${file.redacted} secret${file.redacted === 1 ? "" : "s"} redacted` : "no secret found"}`,
			);
		} catch (error) {
			setState(`export failed: ${(error as Error).message}`);
		}
	};
	return (
		<span class="export" title="download this session, its API keys, tokens and passwords redacted">
			download{" "}
			{FORMATS.map(([format, label]) => (
				<button key={format} type="button" data-format={format} onClick={() => run(format)}>
					{label}
				</button>
			))}
			{branched ? (
				<label>
					<input type="checkbox" checked={all} onChange={(e) => setAll((e.target as HTMLInputElement).checked)} /> every branch
				</label>
			) : null}
			{state ? <span class="export-state">{state}</span> : null}
		</span>
	);
}
