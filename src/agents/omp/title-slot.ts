/**
 * omp's additions to Pi's session format that the indexer must know: the title slot, a fixed-width first
 * line `{"type":"title",…}` of exactly 256 bytes that omp rewrites in place on every rename. Only omp writes
 * it, so a file that has one is omp's, whatever folder it is in.
 */

import { parseJsonObject } from "../../core/parse/jsonl.js";

const SLOT_BYTES = 256;
const SLOT_START = new TextEncoder().encode('{"type":"title"');

/** Bytes of the title slot at the start of a file: 256, or 0 when the file has none. */
export function titleSlotLength(bytes: Uint8Array): number {
	if (bytes.length < SLOT_BYTES || bytes[SLOT_BYTES - 1] !== 0x0a) return 0;
	for (let i = 0; i < SLOT_START.length; i++) if (bytes[i] !== SLOT_START[i]) return 0;
	return SLOT_BYTES;
}

/** The title a slot holds (the slot's bytes read again after a rename), or undefined. */
export function slotBytesTitle(slot: Uint8Array): string | undefined {
	if (titleSlotLength(slot) === 0) return undefined;
	const parsed = parseJsonObject(new TextDecoder().decode(slot).trim());
	return parsed ? slotLineTitle(parsed) : undefined;
}

/** Whether a parsed first line is the title slot. */
export function isTitleSlotLine(line: Record<string, unknown>): boolean {
	return line.type === "title";
}

/** The title of a parsed slot line, or undefined when empty. */
export function slotLineTitle(line: Record<string, unknown>): string | undefined {
	return typeof line.title === "string" && line.title.length > 0 ? line.title : undefined;
}
