/**
 * Text from a session on its way to a terminal. A session may hold any bytes: an OSC 52 writes the clipboard, OSC 8
 * makes links, OSC 0 retitles the window, CSI moves the cursor or hides what follows, a C1 byte (U+0080–U+009F) does
 * the same on terminals that read it as a control. Every text face (the CLI, the overlay and the tool's renderers in
 * Pi's TUI, a Markdown export to stdout) shows such text only through `terminalSafe`, always, colour or not: each C0
 * control but newline and tab, ESC among them, DEL and each C1 control is shown as a visible character, so nothing
 * reaches the terminal as a control and a preview cut anywhere cannot leave half an escape open.
 */

/** C0 controls but tab and newline, DEL, C1 controls. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const CONTROLS = /\r\n|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** A control as people can see it: U+2400's pictures for C0 and DEL (␛, ␍, ␇, ␡), `\x9b` for a C1 control. */
function visible(control: string): string {
	if (control === "\r\n") return "\n";
	const code = control.charCodeAt(0);
	if (code < 0x20) return String.fromCharCode(0x2400 + code);
	if (code === 0x7f) return "\u2421";
	return `\\x${code.toString(16)}`;
}

/** `text` with every control a terminal would act on (all but newline and tab) made visible; CRLF read as a newline. */
export function terminalSafe(text: string): string {
	return CONTROL.test(text) ? text.replace(CONTROLS, visible) : text;
}

/** A copy of a reply with every string in it terminal-safe (plain objects and arrays; other values as they are). */
export function terminalSafeDeep<T>(value: T): T {
	if (typeof value === "string") return terminalSafe(value) as T;
	if (Array.isArray(value)) return value.map((v) => terminalSafeDeep(v)) as T;
	if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
		const out: Record<string, unknown> = {};
		for (const [k, v] of Object.entries(value)) out[k] = terminalSafeDeep(v);
		return out as T;
	}
	return value;
}

/**
 * JSON text safe for a terminal: JSON.stringify escapes C0 controls (ESC as `\u001b`) but writes DEL and the C1
 * controls as they are; these are escaped too. The value parsed back is the same.
 */
export function terminalSafeJson(json: string): string {
	return json.replace(/[\u007f-\u009f]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
}

/** The exact SGR sequences lookback's own styles write (src/cli/format.ts): kept by `terminalSafeStyled`. */
const OWN_STYLES = /\x1b\[(?:1|2|22|33|39|1;33|22;39)m/g;

/**
 * Text lookback styled itself, once more made safe: its own colour codes kept, any other control made visible. The
 * session's text in it was made safe before it was styled (`terminalSafeDeep`), so this is a second fence.
 */
export function terminalSafeStyled(text: string): string {
	if (!CONTROL.test(text)) return text;
	let out = "";
	let at = 0;
	for (const m of text.matchAll(OWN_STYLES)) {
		out += terminalSafe(text.slice(at, m.index)) + m[0];
		at = m.index + m[0].length;
	}
	return out + terminalSafe(text.slice(at));
}
