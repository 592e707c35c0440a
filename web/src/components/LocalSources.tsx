/**
 * No-server mode: pick or drop a session folder, session files or an exported index; the worker indexes them
 * with a progress bar, and says what it read, what it left out and what was wrong. Rescan reads only what changed.
 */

import { useEffect, useRef, useState } from "preact/hooks";
import type { Db } from "../db-client.js";
import { directoryPicker, fromDrop, fromInput, mayRead, type Picked } from "../picked-files.js";
import type { IndexInfo, ProgressMessage, ScanReport, ScanRequest } from "../protocol.js";
import { megabytes, plural } from "./format.js";

interface Props {
	db: Db;
	info: IndexInfo;
	onInfo(info: IndexInfo): void;
}

export function LocalSources({ db, info, onInfo }: Props) {
	const [progress, setProgress] = useState<ProgressMessage["progress"]>();
	const [report, setReport] = useState<ScanReport>();
	const [error, setError] = useState<string>();
	const [busy, setBusy] = useState(false);
	/** Picks handled so far, for whoever waits for the next one to end (the tests). */
	const [handled, setHandled] = useState(0);
	const folderInput = useRef<HTMLInputElement>(null);
	const filesInput = useRef<HTMLInputElement>(null);
	const indexInput = useRef<HTMLInputElement>(null);

	const run = async (work: () => Promise<IndexInfo | ScanReport>) => {
		setBusy(true);
		setError(undefined);
		db.onProgress = setProgress;
		try {
			const done = await work();
			if ("info" in done) {
				setReport(done);
				onInfo(done.info);
			} else onInfo(done);
		} catch (e) {
			setError((e as Error).message);
		} finally {
			setBusy(false);
			setProgress(undefined);
			setHandled((n) => n + 1);
		}
	};
	const scan = (request: ScanRequest) => run(() => db.call("scan", request));
	const take = ({ sessions, others }: Picked) => {
		if (others.length === 1 && sessions.length === 0) return run(() => db.call("importIndex", { file: others[0] }));
		if (sessions.length === 0)
			return run(() =>
				Promise.reject(
					new Error(`no session files (.jsonl, .jsonl.gz, .jsonl.zst, Gemini CLI's .json) among ${plural(others.length, "file")} picked`),
				),
			);
		return scan({ files: sessions });
	};
	const pickFolder = async () => {
		if (!directoryPicker) return folderInput.current?.click();
		try {
			await scan({ folders: [await directoryPicker()] });
		} catch {
			// the person closed the picker
		}
	};
	const rescan = async () => {
		if (info.folders?.length && (await mayRead(info.folders))) return scan({ rescanFolders: true });
		folderInput.current?.click(); // a folder given by the plain input cannot be read again: pick it again, only changes are parsed
	};

	// A folder or files dropped anywhere on the page.
	useEffect(() => {
		const over = (e: DragEvent) => e.preventDefault();
		const drop = (e: DragEvent) => {
			e.preventDefault();
			if (e.dataTransfer) fromDrop(e.dataTransfer).then(take, (err: Error) => setError(err.message));
		};
		addEventListener("dragover", over);
		addEventListener("drop", drop);
		return () => {
			removeEventListener("dragover", over);
			removeEventListener("drop", drop);
		};
	});

	const onFiles = (e: Event) => {
		const input = e.currentTarget as HTMLInputElement;
		const picked = fromInput(input.files);
		input.value = ""; // the same folder picked again is a change too
		take(picked);
	};
	const empty = info.sessions === 0 && !busy;
	return (
		<section id="local" class="local" aria-label="session files in this browser" data-handled={handled}>
			{empty ? (
				<p class="notice">
					No index is served here. Pick your session folders (Pi: ~/.pi/agent/sessions, omp: ~/.omp/agent/sessions, Claude Code: ~/.claude,
					Codex: ~/.codex, Gemini CLI: ~/.gemini), or drop them on the page: they are indexed in this browser and kept for the next visit.
					OpenCode's sessions are in a database this page cannot read: <code>lookback serve</code> shows them.
				</p>
			) : null}
			<div class="local-actions">
				<button type="button" id="pick-folder-button" disabled={busy} onClick={pickFolder}>
					session folder…
				</button>
				<button type="button" disabled={busy} onClick={() => filesInput.current?.click()}>
					session files…
				</button>
				<button type="button" disabled={busy} onClick={() => indexInput.current?.click()} title="an index file exported by lookback">
					index file…
				</button>
				{info.sessions > 0 ? (
					<button type="button" id="rescan" disabled={busy} onClick={rescan} title="read new and grown session files">
						rescan
					</button>
				) : null}
				<input id="pick-folder" ref={folderInput} type="file" {...{ webkitdirectory: true }} disabled={busy} onChange={onFiles} hidden />
				<input
					id="pick-files"
					ref={filesInput}
					type="file"
					multiple
					accept=".jsonl,.gz,.zst,.json"
					disabled={busy}
					onChange={onFiles}
					hidden
				/>
				<input id="pick-index" ref={indexInput} type="file" disabled={busy} onChange={onFiles} hidden />
			</div>
			{progress ? (
				<p class="progress">
					<progress id="scan-progress" value={progress.done} max={Math.max(1, progress.total)} /> indexing {progress.done} /{" "}
					{plural(progress.total, "file")} · {megabytes(progress.bytesRead)}
				</p>
			) : null}
			{report ? (
				<p id="scan-report" data-seen={report.seen} data-parsed={report.parsed} data-added={report.added} data-grown={report.grown}>
					Read {plural(report.parsed, "file")} ({report.added} new, {report.grown} grown
					{report.rewritten ? `, ${report.rewritten} rewritten` : ""}, {megabytes(report.bytesRead)}); {report.unchanged} unchanged.
				</p>
			) : null}
			{report?.opencode.length ? (
				<p id="opencode-note" class="changed">
					Not read: {report.opencode.join(", ")}. OpenCode keeps its sessions in this database, which this page cannot read; run{" "}
					<code>lookback serve</code> on this computer to index them and read them here.
				</p>
			) : null}
			{report && report.problems.length + report.skipped.length + report.warnings.length > 0 ? (
				<div id="scan-problems" class="failure" role="alert">
					Indexed all the same; these files have something wrong:
					<ul>
						{[...report.problems, ...report.skipped.map((s) => `left out: ${s}`), ...report.warnings].map((p) => (
							<li key={p}>{p}</li>
						))}
					</ul>
				</div>
			) : null}
			{error ? (
				<p id="local-error" class="failure" role="alert">
					{error}
				</p>
			) : null}
			{info.unreachable ? (
				<p id="offline" class="changed">
					No server answers: this page runs from the copy this browser kept, on the index it keeps.
				</p>
			) : null}
			{info.notKept ? (
				<p id="not-kept" class="changed">
					Not kept: {info.notKept}.
				</p>
			) : null}
		</section>
	);
}
