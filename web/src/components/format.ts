/** Small display helpers shared by the components. */

export const plural = (n: number, word: string) => `${n.toLocaleString("en")} ${word}${n === 1 ? "" : "s"}`;

export function megabytes(bytes: number): string {
	return bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : `${(bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0)} MB`;
}

/** A session's title: its name, else the start of its first prompt, else its id. */
export const titleOf = (s: { name?: string; firstPrompt?: string; sessionId: string }) =>
	s.name ?? s.firstPrompt?.slice(0, 100) ?? s.sessionId;
