/** What the extension says to the person in Pi's TUI: a session's escapes shown, never acted on (core/text/terminal.ts). */

import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { terminalSafe } from "../core/text/terminal.js";

export function notify(ctx: Pick<ExtensionContext, "ui">, text: string, level: "info" | "warning" | "error"): void {
	ctx.ui.notify(terminalSafe(text), level);
}
