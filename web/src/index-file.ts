/**
 * An index file a person hands to the page, checked before it replaces anything: its SQLite header says
 * whether it is a database at all, whether it was cut short, and which schema a lookback index has; the core
 * then opens it, and SQLite's quick_check reads every page for damage the header cannot show.
 */

import { errorMessage, type FilesEngine, LookbackError, SCHEMA_VERSION } from "../../src/core/index.js";
import { openWholeCopy } from "./whole-copy.js";

const MAGIC = "SQLite format 3\0";
/** PRAGMA application_id of a lookback index ("LkBk"). */
const LOOKBACK_APP_ID = 0x4c6b426b;

const bad = (name: string, why: string) =>
	new LookbackError("index-unusable", `${name} cannot be opened: ${why}. Nothing this browser keeps was changed.`);

/** What the 100-byte header tells; a reason to refuse, or undefined. */
function headerProblem(bytes: Uint8Array): string | undefined {
	if (bytes.length < 100 || new TextDecoder().decode(bytes.subarray(0, 16)) !== MAGIC)
		return "it is not a lookback index (not an SQLite database at all)";
	const view = new DataView(bytes.buffer, bytes.byteOffset, 100);
	const pageSize = view.getUint16(16) === 1 ? 65536 : view.getUint16(16);
	const pages = view.getUint32(28);
	// The page count is trusted only when it was written by the same change as the header's counter.
	if (view.getUint32(92) === view.getUint32(24) && pages * pageSize > bytes.length) {
		return `the file is truncated: it holds ${bytes.length.toLocaleString("en")} bytes of the ${(pages * pageSize).toLocaleString("en")} its header announces`;
	}
	if (view.getUint32(68) !== LOOKBACK_APP_ID) return "it is not a lookback index (an SQLite database of another program)";
	const version = view.getUint32(60);
	if (version > SCHEMA_VERSION)
		return `it was written by a newer lookback (index schema ${version}; this page reads schema ${SCHEMA_VERSION}): update lookback and export it again, or pick the session folder instead`;
	if (version < SCHEMA_VERSION)
		return `it was written by an older lookback (index schema ${version}; this page reads schema ${SCHEMA_VERSION}): pick the session folder to build the index again`;
	return undefined;
}

/** Check `bytes` as a lookback index; resolves when it is usable, throws a message naming what is wrong. */
export async function checkIndexFile(engine: FilesEngine, bytes: Uint8Array, name: string): Promise<void> {
	const problem = headerProblem(bytes);
	if (problem) throw bad(name, problem);
	let copy: Awaited<ReturnType<typeof openWholeCopy>> | undefined;
	try {
		copy = await openWholeCopy(engine, bytes, name);
		const verdict = copy.index.reading((db) => db.exec("PRAGMA quick_check")[0]?.values.map((r) => String(r[0])) ?? []);
		if (verdict.join() !== "ok") throw new Error(`it is damaged (${verdict.slice(0, 2).join("; ")})`);
		copy.index.overview();
	} catch (error) {
		// The core's own verdict names the problem; anything else SQLite met on the way means damage.
		const why = errorMessage(error).replace(/^lookback: (cannot read the index .*?: )?/, "");
		throw bad(
			name,
			error instanceof LookbackError && error.code === "index-unusable"
				? why
				: why.startsWith("it is damaged")
					? why
					: `it is damaged (${why})`,
		);
	} finally {
		copy?.release();
	}
}
