/**
 * The browser viewer: loads the index file the local `lookback serve` hands out, searches it with the same
 * core in WebAssembly, and shows a session's messages. Read-only: nothing is sent back.
 */

import { LookbackIndex, memoryStorage, type SearchHit, type SessionView } from "../../src/core/index.js";
import { loadWebEngine } from "./engine.js";

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

function text(tag: string, content: string, className?: string): HTMLElement {
	const el = document.createElement(tag);
	el.textContent = content;
	if (className) el.className = className;
	return el;
}

/** A snippet with its «marks» as <mark> elements (text nodes only: transcript text is never parsed as HTML). */
function snippet(value: string): HTMLElement {
	const p = document.createElement("p");
	p.className = "snippet";
	for (const [i, part] of value.split(/[«»]/).entries()) {
		p.append(i % 2 === 1 ? text("mark", part) : document.createTextNode(part));
	}
	return p;
}

function showResults(index: LookbackIndex, hits: SearchHit[], notice?: string): void {
	const list = $("results");
	list.replaceChildren();
	if (notice) list.append(text("p", notice, "notice"));
	if (hits.length === 0) list.append(text("p", "no session matches", "notice"));
	for (const hit of hits) {
		const item = document.createElement("li");
		const title = text("a", hit.name ?? hit.firstPrompt?.slice(0, 80) ?? hit.sessionId, "title");
		title.setAttribute("href", `#${hit.sessionId}/${hit.entryId}`);
		title.addEventListener("click", (e) => {
			e.preventDefault();
			showSession(index.read(hit.sessionId, { around: hit.entryId, window: 10 }), hit.entryId);
		});
		const facts = [hit.project, (hit.time ?? "").slice(0, 16).replace("T", " "), `${hit.hits} hit${hit.hits === 1 ? "" : "s"}`, hit.agent, hit.branchState === "active" ? "" : hit.branchState];
		item.append(title, text("span", facts.filter(Boolean).join(" · "), "facts"), snippet(hit.snippet));
		list.append(item);
	}
}

function showSession(view: SessionView, focus?: string): void {
	const pane = $("session");
	pane.replaceChildren(text("h2", view.session.name ?? view.session.sessionId), text("p", `${view.session.cwd ?? ""} · ${view.session.resumeHint}`, "facts"));
	for (const m of view.messages) {
		const block = document.createElement("section");
		block.className = `message ${m.role}${m.entryId === focus ? " focus" : ""}`;
		block.append(text("h3", `${m.role}${m.tool ? ` ${m.tool}` : ""} · ${m.entryId}${m.branchState === "active" ? "" : ` · ${m.branchState}`}`), text("pre", m.text));
		pane.append(block);
	}
	pane.querySelector(".focus")?.scrollIntoView({ block: "center" });
}

async function main(): Promise<void> {
	const status = $("status");
	try {
		const [sql, bytes] = await Promise.all([
			loadWebEngine({ wasmUrl: "/sql-wasm.wasm" }),
			fetch("/index.db").then(async (r) => {
				if (!r.ok) throw new Error(`the server has no index (${r.status})`);
				return new Uint8Array(await r.arrayBuffer());
			}),
		]);
		const index = await LookbackIndex.open({ sql, storage: memoryStorage(bytes) });
		const stats = index.stats();
		status.textContent = `${stats.sessions} sessions, ${stats.indexedEntries} messages`;
		const form = $<HTMLFormElement>("search");
		form.addEventListener("submit", (e) => {
			e.preventDefault();
			const query = $<HTMLInputElement>("query").value;
			const r = index.search({ query, limit: 30 });
			if (r.error) showResults(index, [], r.error);
			else showResults(index, r.results, r.notice);
		});
		showResults(index, [], "type a query: words, \"a phrase\", OR, -word, prefix*");
		document.body.dataset.ready = "true";
	} catch (error) {
		status.textContent = `cannot open the index: ${(error as Error).message}`;
		document.body.dataset.ready = "error";
	}
}

void main();
