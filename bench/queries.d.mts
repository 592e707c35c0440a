/** Types of the benchmark's query set, for the tests that run it. */
export const REFERENCE: string;
export function benchQueries(ctx: { project: string }): {
	name: string;
	query: string;
	since?: string;
	project?: string;
	scan: (line: string) => boolean;
}[];
export function typedQuestions(): { name: string; query: string; since?: string; project?: string }[];
