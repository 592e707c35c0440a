/**
 * The full-screen search overlay: a query line searched as you type, the ranked hits (recent sessions when
 * empty), and a preview of the messages around the selected hit. It only finds and shows; the action picked
 * on a row is handed back to the command, which runs it once the overlay is closed.
 */

import { type Component, type Focusable, Input, type KeyId, matchesKey, type TUI } from "@mariozechner/pi-tui";
import { fit, type OverlayTheme, plain, previewLines, rowLines } from "./overlay-lines.js";
import type { OverlayPreview, OverlayResults, OverlayRow } from "./overlay-results.js";

export type OverlayActionKind = "excerpt" | "summary" | "resume" | "new-session" | "copy" | "export" | "restore";

export interface OverlayAction {
	kind: OverlayActionKind;
	row: OverlayRow;
}

/** The keys of the actions, as the footer names them and as matched. */
const ACTION_KEYS: { kind: OverlayActionKind; key: KeyId; label: string }[] = [
	{ kind: "excerpt", key: "enter", label: "Enter insert excerpt" },
	{ kind: "summary", key: "ctrl+s", label: "^S insert summary" },
	{ kind: "resume", key: "ctrl+r", label: "^R resume" },
	{ kind: "new-session", key: "ctrl+n", label: "^N new session from summary" },
	{ kind: "copy", key: "alt+c", label: "Alt+C copy resume command" },
	{ kind: "export", key: "alt+e", label: "Alt+E export" },
	// Only for a session whose file is gone (its row says so).
	{ kind: "restore", key: "alt+r", label: "" },
];

export interface OverlaySource {
	search(line: string): OverlayResults;
	preview(row: OverlayRow): OverlayPreview;
}

/** Quiet time after the last key before the query runs: typing a word costs one search, not one per letter. */
const DEBOUNCE_MS = 120;

export class LookbackOverlay implements Component, Focusable {
	private readonly input = new Input();
	private results: OverlayResults = { heading: "", rows: [] };
	private searched: string | undefined;
	private selected = 0;
	private listTop = 0;
	private pane: "list" | "preview" = "list";
	private preview?: { row: OverlayRow; data: OverlayPreview; width: number; lines: string[]; focusLine: number };
	private previewTop = 0;
	private timer: ReturnType<typeof setTimeout> | undefined;
	private _focused = false;

	constructor(
		private readonly tui: TUI,
		private readonly theme: OverlayTheme,
		private readonly source: OverlaySource,
		private readonly done: (action: OverlayAction | undefined) => void,
		initialQuery = "",
	) {
		this.input.setValue(initialQuery);
		this.runSearch();
	}

	get focused(): boolean {
		return this._focused;
	}

	set focused(value: boolean) {
		this._focused = value;
		this.input.focused = value;
	}

	handleInput(data: string): void {
		if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c")) {
			this.close(undefined);
			return;
		}
		const action = ACTION_KEYS.find((a) => matchesKey(data, a.key));
		if (action) {
			const row = this.results.rows[this.selected];
			if (row) this.close({ kind: action.kind, row });
			return;
		}
		if (matchesKey(data, "tab")) this.pane = this.pane === "list" ? "preview" : "list";
		else if (matchesKey(data, "up")) this.move(-1);
		else if (matchesKey(data, "down")) this.move(1);
		else if (matchesKey(data, "pageUp")) this.scrollPreview(-this.previewHeight());
		else if (matchesKey(data, "pageDown")) this.scrollPreview(this.previewHeight());
		else {
			this.input.handleInput(data);
			if (this.input.getValue() !== this.searched) this.schedule();
		}
		this.tui.requestRender();
	}

	render(width: number): string[] {
		const height = Math.max(8, this.tui.terminal.rows);
		const listHeight = Math.max(2, Math.floor(((height - 6) * 2) / 5 / 2) * 2);
		const previewHeight = height - 6 - listHeight;
		const t = this.theme;
		const lines = [
			fit(`${t.fg("accent", t.bold("lookback"))} ${t.fg("muted", `search past sessions · ${this.results.heading}`)}`, width),
			fit(this.input.render(width)[0] ?? "", width),
			this.rule("results", this.pane === "list", width),
			...this.listLines(listHeight, width),
			this.rule("preview", this.pane === "preview", width),
			...this.previewPane(previewHeight, width),
			fit(
				t.fg(
					"muted",
					`↑↓ ${this.pane === "list" ? "move" : "scroll"} · Tab switch pane · PgUp/PgDn scroll preview · Esc close · filters: project: since: until: role: agent:`,
				),
				width,
			),
			fit(
				ACTION_KEYS.map((a) =>
					a.kind === "restore" ? (this.results.rows[this.selected]?.goneAt ? "Alt+R restore the file" : "") : a.label,
				)
					.filter(Boolean)
					.join(" · "),
				width,
			),
		];
		return lines;
	}

	invalidate(): void {
		this.preview = undefined;
	}

	dispose(): void {
		clearTimeout(this.timer);
	}

	private close(action: OverlayAction | undefined): void {
		clearTimeout(this.timer);
		this.done(action);
	}

	private schedule(): void {
		clearTimeout(this.timer);
		this.timer = setTimeout(() => {
			this.runSearch();
			this.tui.requestRender();
		}, DEBOUNCE_MS);
	}

	private runSearch(): void {
		this.searched = this.input.getValue();
		this.results = this.source.search(this.searched);
		this.selected = 0;
		this.listTop = 0;
		this.preview = undefined;
	}

	private move(delta: number): void {
		if (this.pane === "preview") {
			this.scrollPreview(delta);
			return;
		}
		const count = this.results.rows.length;
		if (count === 0) return;
		this.selected = Math.min(count - 1, Math.max(0, this.selected + delta));
	}

	private scrollPreview(delta: number): void {
		const last = Math.max(0, (this.preview?.lines.length ?? 0) - this.previewHeight());
		// The preview opens on the hit, which may already be past `last`: scrolling down never moves it up.
		this.previewTop = delta > 0 ? Math.max(this.previewTop, Math.min(last, this.previewTop + delta)) : Math.max(0, this.previewTop + delta);
	}

	private previewHeight(): number {
		const height = Math.max(8, this.tui.terminal.rows);
		return height - 6 - Math.max(2, Math.floor(((height - 6) * 2) / 5 / 2) * 2);
	}

	private rule(label: string, active: boolean, width: number): string {
		const text = ` ${label} `;
		const line = `──${text}${"─".repeat(Math.max(0, width - text.length - 2))}`;
		return fit(active ? this.theme.fg("accent", line) : this.theme.fg("muted", line), width);
	}

	private listLines(height: number, width: number): string[] {
		const { rows, error, notice } = this.results;
		const out: string[] = [];
		if (error) out.push(fit(this.theme.fg("warning", plain(error)), width));
		else if (rows.length === 0) {
			const query = this.searched?.trim() ?? "";
			out.push(fit(this.theme.fg("warning", query ? `no session matches "${plain(query)}"` : "no sessions indexed yet"), width));
		}
		const visible = Math.floor(height / 2);
		if (this.selected < this.listTop) this.listTop = this.selected;
		if (this.selected >= this.listTop + visible) this.listTop = this.selected - visible + 1;
		for (let i = this.listTop; i < Math.min(rows.length, this.listTop + visible); i++)
			out.push(...rowLines(rows[i], i === this.selected, this.theme, width));
		if (notice && out.length < height) out.push(fit(this.theme.fg("muted", plain(notice)), width));
		return pad(out.slice(0, height), height);
	}

	private previewPane(height: number, width: number): string[] {
		const row = this.results.rows[this.selected];
		if (!row) return pad([], height);
		if (this.preview?.row !== row || this.preview.width !== width) {
			const data = this.source.preview(row);
			const drawn = previewLines(data.messages, data.focus, this.theme, width);
			const lines = data.error ? [fit(this.theme.fg("warning", plain(data.error)), width), ...drawn.lines] : drawn.lines;
			// Open on the hit's message, one line of the message before it in view.
			if (this.preview?.row !== row) this.previewTop = Math.max(0, drawn.focusLine - 2);
			this.preview = { row, data, width, lines, focusLine: drawn.focusLine };
		}
		return pad(this.preview.lines.slice(this.previewTop, this.previewTop + height), height);
	}
}

function pad(lines: string[], height: number): string[] {
	return lines.length >= height ? lines : [...lines, ...Array<string>(height - lines.length).fill("")];
}
