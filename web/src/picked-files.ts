/**
 * The page's side of no-server mode: what the person picked or dropped, as relative paths and File objects
 * for the worker, and the service worker that keeps the page itself.
 */

import { isScanFile, PICKED_DEPTH, type PickedFile } from "./browser-source.js";

export interface Picked {
	/** Session files, the files the agents keep beside them, and OpenCode's databases (named, not read). */
	sessions: PickedFile[];
	/** Other files: taken as exported index files. */
	others: File[];
}

function sort(files: PickedFile[]): Picked {
	return { sessions: files.filter((f) => isScanFile(f.path)), others: files.filter((f) => !isScanFile(f.path)).map((f) => f.file) };
}

/** Files of an `<input type=file>` (a `webkitdirectory` one gives each file's path inside the folder). */
export function fromInput(list: FileList | null): Picked {
	return sort(Array.from(list ?? [], (file) => file).map((file) => ({ path: file.webkitRelativePath || file.name, file })));
}

function entries(dir: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
	const reader = dir.createReader();
	const all: FileSystemEntry[] = [];
	// readEntries hands out a folder in batches: read until it returns none.
	return new Promise((resolve, reject) => {
		const more = () =>
			reader.readEntries((batch) => {
				if (batch.length === 0) return resolve(all);
				all.push(...batch);
				more();
			}, reject);
		more();
	});
}

async function walkEntry(entry: FileSystemEntry, found: PickedFile[], depth = 0): Promise<void> {
	const path = entry.fullPath.replace(/^\//, "");
	if (entry.isFile)
		found.push({ path, file: await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject)) });
	else if (entry.isDirectory && depth < PICKED_DEPTH)
		for (const child of await entries(entry as FileSystemDirectoryEntry)) await walkEntry(child, found, depth + 1);
}

/** Files and folders dropped on the page. */
export async function fromDrop(data: DataTransfer): Promise<Picked> {
	const found: PickedFile[] = [];
	for (const item of Array.from(data.items, (i) => i)) {
		const entry = item.webkitGetAsEntry();
		const file = entry ? undefined : item.getAsFile(); // a drop made by a script has files but no entries
		if (entry) await walkEntry(entry, found);
		else if (file) found.push({ path: file.name, file });
	}
	return sort(found);
}

type DirectoryPicker = () => Promise<FileSystemDirectoryHandle>;
type Permission = { requestPermission?(o: { mode: "read" }): Promise<PermissionState> };

/** The File System Access API's folder picker, where the browser has it: its folder can be read again by a rescan. */
export const directoryPicker = (globalThis as { showDirectoryPicker?: DirectoryPicker }).showDirectoryPicker;

/** Ask again for leave to read folders picked on an earlier visit (needs the click that asks for the rescan). */
export async function mayRead(folders: FileSystemDirectoryHandle[]): Promise<boolean> {
	for (const folder of folders) if ((await (folder as Permission).requestPermission?.({ mode: "read" })) === "denied") return false;
	return true;
}

/** The service worker (sw.js) that keeps the page's own files, so that it opens with no server (the page registers it once its first view is shown). */
export function keepPageOffline(): void {
	navigator.serviceWorker?.register("sw.js").catch(() => undefined); // not served (older `lookback serve`), or not allowed: the page works online
}
