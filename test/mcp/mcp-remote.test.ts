/** `lookback mcp` over a team's bucket (LOOKBACK_REMOTE, and --remote): its tools answer from every machine's shard. */

import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../helpers.js";
import { lookback, machine, json as ranJson, session } from "../team-helpers.js";
import { agentDir, call, json, type Server, startServer } from "./mcp-client.js";

const servers: Server[] = [];
afterEach(async () => {
	for (const s of servers.splice(0)) await s.close();
});

describe("lookback mcp over a team", () => {
	it("searches, reads and lists every shard, each hit naming its machine", async () => {
		const bucket = pathToFileURL(join(tempDir("bucket"), "team")).href;
		const ids: Record<string, string> = {};
		for (const name of ["laptop", "devbox"]) {
			const m = machine(name);
			ids[name] = session(m, `gecko ${name} timeout`, `middle of ${name}`);
			ranJson(await lookback(["publish", bucket, "--as", name, "--json", ...m.args]));
		}
		const ways: [string, { env?: Record<string, string>; extraArgs?: string[] }][] = [
			["LOOKBACK_REMOTE", { env: { LOOKBACK_REMOTE: bucket } }],
			["--remote", { extraArgs: ["--remote", bucket] }],
		];
		for (const [how, options] of ways) {
			const s = await startServer(agentDir(), options);
			servers.push(s);
			const found = json(await call(s, "search_sessions", { query: "gecko timeout" }));
			const results = found.results as { shard: string; sessionId: string; context?: unknown }[];
			expect(results.map((r) => r.shard).sort(), how).toEqual(["devbox", "laptop"]);
			expect(results[0].context).toBeDefined();
			const read = json(await call(s, "read_session", { sessionId: ids.devbox }));
			expect(read.shard).toBe("devbox");
			expect(JSON.stringify(read)).toContain("gecko devbox timeout");
			const named = json(await call(s, "read_session", { sessionId: `laptop:${ids.laptop}` }));
			expect(named.shard).toBe("laptop");
			const list = json(await call(s, "list_sessions", {}));
			expect((list.sessions as unknown[]).length).toBe(2);
			const status = json(await call(s, "index_status"));
			expect((status.shards as { name: string }[]).map((x) => x.name).sort()).toEqual(["devbox", "laptop"]);
			const missing = await call(s, "read_session", { sessionId: "no-such-session" });
			expect(missing.isError).toBe(true);
			expect(missing.text).toMatch(/^lookback: no shard of .* has session no-such-session$/);
		}
	});
});
