/**
 * Parts of session files for the worker, so that an export holds long messages whole (the index keeps their
 * head and tail): from `lookback serve`'s /session-file route by a synchronous ranged request, or from the files
 * a person picked in this tab. Either may have nothing to give (a static host, a reload since the pick): the
 * export then says which messages are cut.
 */

import type { ReadRange } from "../../src/core/index.js";

/** A worker's synchronous file reader (not in TypeScript's DOM library). */
declare const FileReaderSync: { new (): { readAsArrayBuffer(blob: Blob): ArrayBuffer } };

/** Ranges of the session files `lookback serve` hands out beside the index at `indexUrl`. */
export function servedSessionRange(indexUrl: string): ReadRange {
	const route = new URL("session-file", indexUrl);
	return (path, start, end) => {
		if (end <= start) return new Uint8Array(0);
		const url = new URL(route);
		url.searchParams.set("path", path);
		const xhr = new XMLHttpRequest();
		xhr.open("GET", url.href, false);
		xhr.responseType = "arraybuffer";
		xhr.setRequestHeader("Range", `bytes=${start}-${end - 1}`);
		try {
			xhr.send();
		} catch {
			return undefined;
		}
		if (xhr.status !== 206) return undefined;
		const bytes = new Uint8Array(xhr.response as ArrayBuffer);
		return bytes.length === end - start ? bytes : undefined;
	};
}

/** Ranges of files picked in this tab, read synchronously (a worker may). */
export function pickedSessionRange(files: ReadonlyMap<string, File>): ReadRange {
	return (path, start, end) => {
		const file = files.get(path);
		if (!file) return undefined;
		try {
			const bytes = new Uint8Array(new FileReaderSync().readAsArrayBuffer(file.slice(start, end)));
			return bytes.length === end - start ? bytes : undefined;
		} catch {
			return undefined; // changed or gone since it was picked
		}
	};
}
