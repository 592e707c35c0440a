/** Which index the page has open, and whether the server's copy changed since. */

import { shortTime } from "../../../src/core/index.js";
import type { IndexInfo } from "../protocol.js";
import { megabytes, plural } from "./format.js";

const MODE: Record<IndexInfo["mode"], string> = {
	paged: "read by ranges",
	whole: "downloaded",
	offline: "offline copy",
	local: "built in this browser",
	team: "a team's shards, read by ranges",
};

export function IndexStatus({ info, notice, onReopen }: { info?: IndexInfo; notice?: string; onReopen(): void }) {
	return (
		<div id="status" class="status">
			{info ? (
				<span class="index-info" title={info.lastSync ? `last sync ${info.lastSync}` : undefined}>
					{plural(info.sessions, "session")} · {megabytes(info.bytes)} · {MODE[info.mode]}
					{info.keptIn ? ` · kept in ${info.keptIn}` : ""}
					{info.lastSync ? ` · synced ${shortTime(info.lastSync)}` : ""}
					{info.notKept ? " · not kept" : ""}
				</span>
			) : (
				<span>opening the index…</span>
			)}
			{notice ? (
				<span class="changed">
					{notice}{" "}
					<button type="button" onClick={onReopen}>
						reopen
					</button>
				</span>
			) : null}
		</div>
	);
}
