/** The parts of Gemini CLI's messages: their prose, what a tool said, and what the CLI wraps around them. */

import { asRecord, asString } from "../../core/parse/pi-shape.js";

/** Text the CLI puts before the first prompt (date, OS, the folder's listing): the same in every chat, not searched. */
export function isSessionContext(text: string): boolean {
	return text.trimStart().startsWith("<session_context>");
}

/** Tool output the CLI wraps as untrusted for the model: the wrapper is not part of what the tool said. */
function unwrap(text: string): string {
	const m = /^\s*<untrusted_context>\n?([\s\S]*?)\n?<\/untrusted_context>\s*$/.exec(text);
	return m ? m[1] : text;
}

export function partsOf(content: unknown): Record<string, unknown>[] {
	if (typeof content === "string") return [{ text: content }];
	if (Array.isArray(content)) return content.map((p) => (typeof p === "string" ? { text: p } : asRecord(p))).filter((p) => p !== undefined);
	const one = asRecord(content);
	return one ? [one] : [];
}

/** Prose of a message's parts: text (not the model's thoughts), images and files named. */
export function partsText(content: unknown): string {
	const out: string[] = [];
	for (const part of partsOf(content)) {
		if (typeof part.text === "string" && part.thought !== true) out.push(part.text);
		else if (asRecord(part.inlineData)) out.push(`[${asString(asRecord(part.inlineData)?.mimeType) ?? "inline data"}]`);
		else if (asRecord(part.fileData)) out.push(`[${asString(asRecord(part.fileData)?.fileUri) ?? "file"}]`);
	}
	return out.join("\n").trim();
}

/** What a tool said: each functionResponse's output (or error), and any text beside it. */
export function responseText(parts: Record<string, unknown>[]): { text: string; error: boolean } {
	const out: string[] = [];
	let error = false;
	for (const part of parts) {
		const fr = asRecord(part.functionResponse);
		if (fr) {
			const response = asRecord(fr.response);
			const output = response?.output ?? response?.result ?? response?.content;
			if (typeof response?.error === "string" && output === undefined) {
				error = true;
				out.push(response.error);
			} else if (typeof output === "string") out.push(unwrap(output));
			else if (output !== undefined) out.push(JSON.stringify(output));
			else if (response) out.push(JSON.stringify(response));
		} else if (typeof part.text === "string") out.push(part.text);
	}
	return { text: out.join("\n").trim(), error };
}
