/** A message's text in its parts: an assistant's body is its prose, then one `→ name {arguments}` line per tool call (parse/entry-text.ts). */

export interface ToolCall {
	name: string;
	/** The call's arguments as written (JSON for most agents). */
	arguments: string;
}

/** An assistant body split into its prose and its tool calls. */
export function assistantParts(text: string): { prose: string; calls: ToolCall[] } {
	const lines = text.split("\n");
	let at = lines.length;
	while (at > 0 && lines[at - 1].startsWith("→ ")) at--;
	const calls = lines.slice(at).map((line) => {
		const [name, ...rest] = line.slice(2).split(" ");
		return { name, arguments: rest.join(" ") };
	});
	return { prose: lines.slice(0, at).join("\n"), calls };
}

/** What a tool call is about, on one line: its first argument (a path, a command), else the first line of its text. */
export function firstArgument(text: string): string {
	try {
		const args = JSON.parse(text) as Record<string, unknown>;
		const first = Object.values(args)[0];
		return typeof first === "string" ? first : JSON.stringify(first ?? "");
	} catch {
		return text.split("\n", 1)[0] ?? "";
	}
}
