/** Types of bench/served-bytes.mjs, for the served-mode test. */
export interface ServedCounts {
	requests: number;
	bytes: number;
}
export function countServedBytes(pathname: string): { counts: ServedCounts; stop(): void };
