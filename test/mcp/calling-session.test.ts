/**
 * The calling sessions of a server are read from the index and the files once per version of what it knows
 * (HostIndex.fresh: no sync asked, the folders watched quiet), and the clock applied anew at every call.
 */
import { utimesSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { DEFAULTS } from "../../src/core/index.js";
import { CallingSessionsCache } from "../../src/mcp/calling-session.js";
import { indexOf, tempDir } from "../helpers.js";
import { writeSession } from "./session-file.js";

describe("the calling sessions of a server", () => {
	it("are read once per version, and stop being the caller's as time passes without a read", async () => {
		const sessions = join(tempDir("calling"), "sessions");
		const cwd = tempDir("project");
		const now = Date.now();
		const live = writeSession(sessions, "live-session", cwd, ["hello", "hi"], new Date(now - 60_000).toISOString());
		const old = writeSession(sessions, "older-session", cwd, ["hello again", "hi"], new Date(now - 3_600_000).toISOString());
		utimesSync(old, new Date(now - 3_600_000), new Date(now - 3_600_000));
		const { index } = await indexOf(sessions);
		const browse = vi.spyOn(index, "browse");
		const cache = new CallingSessionsCache();

		expect(cache.get(index, cwd, 1, now).leftOut).toEqual([{ sessionId: "live-session", path: live }]);
		expect(cache.get(index, cwd, 1, now + 1_000).leftOut).toEqual([{ sessionId: "live-session", path: live }]);
		expect(browse).toHaveBeenCalledTimes(1);
		// Past the calling window, at the same version: no longer the caller's, and nothing read.
		expect(cache.get(index, cwd, 1, now + DEFAULTS.callingSessionMs + 1_000).leftOut).toEqual([]);
		expect(browse).toHaveBeenCalledTimes(1);
		// Another version (a sync asked, something changed): read again.
		utimesSync(old, new Date(), new Date());
		expect(
			cache
				.get(index, cwd, 2, Date.now())
				.leftOut.map((s) => s.sessionId)
				.sort(),
		).toEqual(["live-session", "older-session"]);
		expect(browse).toHaveBeenCalledTimes(2);
		index.close();
	});
});
