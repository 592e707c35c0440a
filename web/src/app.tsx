/**
 * The viewer: recent sessions, activity and projects; search as you type; a session read as a conversation.
 * The index lives in a Web Worker (worker.ts) and is asked through messages; the URL names the view.
 */

import { render } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import type { ActivityDay, ProjectCount, SearchHit, SessionSummary, SessionView } from "../../src/core/index.js";
import { ActivityChart } from "./components/ActivityChart.js";
import { Dashboard } from "./components/Dashboard.js";
import { IndexStatus } from "./components/IndexStatus.js";
import { LocalSources } from "./components/LocalSources.js";
import { MachineFilter } from "./components/MachineFilter.js";
import { ProjectList } from "./components/ProjectList.js";
import { Reader } from "./components/Reader.js";
import { SearchBar } from "./components/SearchBar.js";
import { SessionRow } from "./components/SessionRow.js";
import { VirtualList } from "./components/VirtualList.js";
// boot.js in the built page (scripts/build-web.mjs): the worker it started.
import { INDEX_URL, mode, openRequest, store } from "./open-request.js";
import { db, firstOpen } from "./page-db.js";
import { keepPageOffline } from "./picked-files.js";
import type { IndexInfo } from "./protocol.js";
import { readViewState, type ViewState, viewUrl } from "./view-state.js";
import { widenedSearch } from "./widening-search.js";

/** How long the list waits after a keystroke before it searches: typing on is not searched letter by letter. */
const TYPING_PAUSE_MS = 150;

/**
 * What waits until a first view is painted, once each, since it would compete with that view for the machine: the
 * service worker's copy of the page (its install fetches the page's files again and compiles its scripts, measured
 * at 0.4 s of CPU on a 2 vCPU machine), after any first view; the worker fetching ahead what searches read (up to
 * 16 MB), after a first list, not the dashboard, which reads none of it.
 */
const once = (fn: () => void) => {
	let done = false;
	return () => {
		if (!done) fn();
		done = true;
	};
};
const firstViewShown = once(keepPageOffline);
const firstListShown = once(() => {
	firstViewShown();
	db.call("prefetch", {}).catch(() => undefined);
});

type Listing =
	| { kind: "recent"; sessions: SessionSummary[] }
	| { kind: "results"; query: string; hits: SearchHit[]; notice?: string; error?: string; why?: string };

function App() {
	const [view, setView] = useState<ViewState>(() => readViewState(location.search));
	const [info, setInfo] = useState<IndexInfo>();
	const [failure, setFailure] = useState<string>();
	const [changed, setChanged] = useState<string>();
	const [landing, setLanding] = useState<{ activity: ActivityDay[]; projects: ProjectCount[] }>();
	const [listing, setListing] = useState<Listing>();
	const [session, setSession] = useState<{ view?: SessionView; error?: string }>();
	const [selected, setSelected] = useState(0);
	const input = useRef<HTMLInputElement>(null);

	// Several changes can come from one key press (a keydown and the input it causes): each builds on the last.
	const latest = useRef(view);
	latest.current = view;
	const go = (patch: Partial<ViewState>, push = true) => {
		const next = { ...latest.current, ...patch };
		latest.current = next;
		(push ? history.pushState : history.replaceState).call(history, null, "", viewUrl(next, mode, store));
		setView(next);
	};
	const hrefOf = (session: string, entry?: string) => viewUrl({ ...view, session, entry: entry ?? "" }, mode, store);
	const openSession = (session: string, entry?: string) => go({ session, entry: entry ?? "" });

	const opened = (next: IndexInfo) => {
		setInfo(next);
		setFailure(undefined);
		document.body.dataset.ready = "true";
		document.body.dataset.mode = next.mode;
	};
	/** Open the index: the first time, the open the page's first script asked for (page-db.ts); again, anew. */
	const openIndex = (again: boolean) => {
		setChanged(undefined);
		(again ? openRequest().then((request) => db.call("open", request)) : firstOpen).then(opened, (error: Error) => {
			setFailure(error.message);
			document.body.dataset.ready = "error";
		});
	};
	useEffect(() => openIndex(false), []);
	useEffect(() => {
		const back = () => setView(readViewState(location.search));
		addEventListener("popstate", back);
		return () => removeEventListener("popstate", back);
	}, []);

	// Notice when the server's copy changed or the server went away; what is open stays usable.
	useEffect(() => {
		if (!info || info.mode === "offline" || info.mode === "local" || info.mode === "team") return;
		const timer = setInterval(async () => {
			try {
				const head = await fetch(INDEX_URL, { method: "HEAD", cache: "no-store" });
				setChanged(
					head.ok && head.headers.get("ETag") !== info.etag
						? "the server's index changed since this page opened it"
						: head.ok
							? undefined
							: `the server answers ${head.status}`,
				);
			} catch {
				setChanged("the server does not answer: what is open stays readable");
			}
		}, 3000);
		return () => clearInterval(timer);
	}, [info]);

	// The list: search results as you type (debounced), else the recent sessions.
	const filters = {
		project: view.project || undefined,
		agent: view.agent || undefined,
		since: view.since || undefined,
		until: view.until || undefined,
		gone: view.gone || undefined,
		shard: view.machine || undefined,
	};
	/** What the list should show now: the query as typed and its filters. */
	const listKey = JSON.stringify([view.q, filters, view.role, view.branch]);
	/** The list shown (it lags behind the query while a search runs). */
	const listedKey = useRef("");
	/** Enter pressed before the list of the query as typed arrived: open its top row when it does. */
	const openWhenListed = useRef<string | undefined>(undefined);
	const dashboard = view.view === "usage" && !view.session;
	// The landing's activity and projects, once for each index opened, when the sessions view shows: a page opened on
	// the dashboard does not sum them before its own figures.
	const landingOf = useRef<IndexInfo | undefined>(undefined);
	const landingMachine = useRef("");
	useEffect(() => {
		if (!info || dashboard || (landingOf.current === info && landingMachine.current === view.machine)) return;
		landingOf.current = info;
		landingMachine.current = view.machine;
		db.call("landing", { shard: view.machine || undefined }).then(setLanding, () => undefined);
	}, [info, dashboard, view.machine]);
	/** The query the list was last asked for: a keystroke away from it waits for a pause in the typing. */
	const askedQuery = useRef<string | undefined>(undefined);
	useEffect(() => {
		if (!info || dashboard) return;
		let current = true;
		// One character more or less is typing: wait for a pause. Anything else — a paste, a filter, a link, the
		// index refreshed — is a whole request, searched at once.
		const keystroke = askedQuery.current !== undefined && Math.abs(view.q.length - askedQuery.current.length) === 1;
		askedQuery.current = view.q;
		const show = (next: Listing) => {
			if (!current) return false;
			setListing(next);
			// The same list again (the index info refreshed, or widened): keep the reader's place in it.
			if (listKey !== listedKey.current) setSelected(0);
			listedKey.current = listKey;
			if (openWhenListed.current === listKey) {
				openWhenListed.current = undefined;
				const top = next.kind === "results" ? next.hits[0] : next.sessions[0];
				if (top) go({ session: top.sessionId, entry: next.kind === "results" ? next.hits[0].entryId : "" });
			}
			return true;
		};
		const timer = setTimeout(
			async () => {
				try {
					if (!view.q.trim()) show({ kind: "recent", sessions: await db.call("browse", { ...filters, limit: 200 }) });
					else
						await widenedSearch(
							(request) => db.call("search", request),
							{ query: view.q, ...filters, role: view.role || undefined, branch: view.branch || undefined },
							100,
							(r) => show({ kind: "results", query: view.q, hits: r.results, notice: r.notice, error: r.error, why: r.why?.message }),
						);
				} catch (error) {
					if (current) setListing({ kind: "results", query: view.q, hits: [], error: (error as Error).message });
				}
			},
			keystroke ? TYPING_PAUSE_MS : 0,
		);
		return () => {
			current = false;
			clearTimeout(timer);
		};
	}, [info, dashboard, view.q, view.project, view.agent, view.role, view.since, view.until, view.branch, view.gone, view.machine]);

	useEffect(() => {
		if (!info || !view.session) return setSession(undefined);
		let current = true;
		db.call("read", {
			ref: view.session,
			around: view.entry || undefined,
			window: 1_000_000,
			structure: true,
			usage: true,
			shard: view.machine || undefined,
		}).then(
			(v) => current && setSession({ view: v }),
			(error: Error) => current && setSession({ error: error.message }),
		);
		return () => {
			current = false;
		};
	}, [info, view.session, view.entry]);

	// After the browser painted the first list, or why the index cannot open (a plain effect runs then).
	useEffect(() => {
		if (listing) firstListShown();
		else if (failure) firstViewShown();
	}, [listing, failure]);

	const rows: (SessionSummary | SearchHit)[] = listing?.kind === "results" ? listing.hits : (listing?.sessions ?? []);
	const openRow = (i: number) => {
		const row = rows[i];
		if (row) openSession(row.sessionId, "entryId" in row ? row.entryId : undefined);
	};

	// A layout effect: bound again synchronously after each render, so a key pressed right after another never
	// reaches a handler that still holds the previous selection (Preact runs plain effects after the next paint).
	useLayoutEffect(() => {
		const onKey = (e: KeyboardEvent) => {
			const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement;
			if (dashboard && e.key !== "/" && e.key !== "Escape") return;
			if (e.key === "/" && !typing) {
				e.preventDefault();
				input.current?.focus();
			} else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
				if (typing && e.target !== input.current) return;
				e.preventDefault();
				setSelected((s) => Math.max(0, Math.min(rows.length - 1, s + (e.key === "ArrowDown" ? 1 : -1))));
			} else if (e.key === "Enter" && (!typing || e.target === input.current)) {
				e.preventDefault();
				// The rows on screen may still be those of an earlier query (typed fast, pasted): Enter is for the query as typed.
				if (listedKey.current === listKey) openRow(selected);
				else openWhenListed.current = listKey;
			} else if (e.key === "Escape") {
				if (view.session) go({ session: "", entry: "" });
				else if (view.q) go({ q: "" }, false);
				input.current?.blur();
			}
		};
		addEventListener("keydown", onKey);
		return () => removeEventListener("keydown", onKey);
	});

	return (
		<>
			<header class="top">
				<a
					class="brand"
					href={location.pathname}
					onClick={(e) => {
						e.preventDefault();
						go({ q: "", project: "", agent: "", role: "", since: "", until: "", branch: "", gone: "", session: "", entry: "", view: "" });
					}}
				>
					lookback
				</a>
				<nav class="views" aria-label="views">
					{(["", "usage"] as const).map((v) => (
						<a
							key={v}
							href={viewUrl({ ...view, view: v, session: "", entry: "" }, mode, store)}
							aria-current={view.view === v && !view.session ? "page" : undefined}
							onClick={(e) => {
								e.preventDefault();
								go({ view: v, session: "", entry: "" });
							}}
						>
							{v === "" ? "sessions" : "usage"}
						</a>
					))}
				</nav>
				<SearchBar state={view} input={input} onChange={(patch) => go(patch, false)} />
				{info?.team ? (
					<MachineFilter team={info.team} machine={view.machine} onChange={(machine) => go({ machine, session: "", entry: "" })} />
				) : null}
				<IndexStatus info={info} notice={changed} onReopen={() => openIndex(true)} />
			</header>
			{info?.mode === "local" ? <LocalSources db={db} info={info} onInfo={opened} /> : null}
			{failure ? (
				<p id="failure" class="failure" role="alert">
					Cannot open the index: {failure}
				</p>
			) : null}
			{dashboard && info ? (
				<main class="usage-view">
					<Dashboard
						db={db}
						onShown={firstViewShown}
						state={view}
						generation={info}
						onChange={(patch, push = false) => go(patch, push)}
						linkTo={(session, entry) => viewUrl({ ...view, view: "", session, entry: entry ?? "" }, mode, store)}
						onOpen={(session, entry) => go({ view: "", session, entry: entry ?? "" })}
					/>
				</main>
			) : null}
			<main class={view.session ? "panes reading" : "panes"} hidden={dashboard}>
				<section
					id="list"
					class="list"
					data-kind={listing?.kind}
					data-query={listing?.kind === "results" ? listing.query : undefined}
					aria-label={listing?.kind === "results" ? "results" : "recent sessions"}
				>
					<h2 class="pane-title">
						{listing?.kind === "results" ? `${rows.length} matching session${rows.length === 1 ? "" : "s"}` : "recent sessions"}
						{view.since && view.since === view.until ? ` on ${view.since}` : ""}
					</h2>
					{listing?.kind === "results" && (listing.error || listing.notice) ? (
						<p class="notice">{listing.error ?? listing.notice}</p>
					) : null}
					{listing && rows.length === 0 && !(listing.kind === "results" && listing.error) ? (
						<p class="notice">
							{listing.kind === "results" ? `no session matches${listing.why ? `: ${listing.why}` : ""}` : "no sessions"}
						</p>
					) : null}
					<VirtualList
						items={rows}
						estimate={84}
						keyOf={(r, i) => `${r.sessionId}-${i}`}
						scrollTo={selected}
						render={(r, i) => (
							<SessionRow
								session={r}
								selected={i === selected}
								href={hrefOf(r.sessionId, "entryId" in r ? r.entryId : undefined)}
								onOpen={() => {
									setSelected(i);
									openRow(i);
								}}
							/>
						)}
					/>
				</section>
				<section id="reader" class="detail">
					{session?.error ? <p class="failure">{session.error}</p> : null}
					{session?.view ? (
						<Reader
							view={session.view}
							entry={view.entry}
							linkTo={hrefOf}
							onOpen={openSession}
							onClose={() => go({ session: "", entry: "" })}
							exportAs={(format, branch) => db.call("export", { ref: session.view!.session.path, format, branch })}
						/>
					) : landing && !view.session ? (
						<div class="landing">
							<h2 class="pane-title">activity</h2>
							<ActivityChart
								days={landing.activity}
								selected={view.since === view.until ? view.since : ""}
								onPick={(day) => go({ since: day, until: day })}
							/>
							<h2 class="pane-title">projects</h2>
							<ProjectList projects={landing.projects} onPick={(project) => go({ project })} />
						</div>
					) : null}
				</section>
			</main>
		</>
	);
}

render(<App />, document.getElementById("app")!);
