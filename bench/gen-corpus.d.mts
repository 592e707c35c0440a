/** Types of the benchmark's corpus generator, for the tests that bury graded sessions under a generated corpus. */
export function generateCorpus(options: { out: string; mb: number; seed?: number; agent?: "pi" | "omp"; force?: boolean }): {
	sessions: number;
	files: number;
};
