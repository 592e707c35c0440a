/**
 * A team's bucket read over plain HTTP: the folder a publish wrote, served read-only by Debian's nginx on 127.0.0.1
 * (as a bucket's website or a CDN would), read by Range requests alone.
 */

import { rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers.js";
import { json, lookback, machine, session } from "../team-helpers.js";
import { freePort, type Running, startNginx } from "../team-servers.js";

const root = tempDir("www");
const bucket = join(root, "team");
let nginx: Running;
const ids: Record<string, string> = {};
beforeAll(async () => {
	for (const name of ["laptop", "ci", "lost"]) {
		const m = machine(name);
		ids[name] = session(m, `dingo ${name} flake`, `tucked away: quollMiddle${name}`);
		json(await lookback(["publish", pathToFileURL(bucket).href, "--as", name, "--json", ...m.args]));
	}
	rmSync(join(bucket, "shards", "lost"), { recursive: true });
	nginx = await startNginx(root, await freePort());
});
afterAll(() => nginx?.close());

describe("a team over nginx (read-only, by ranges)", () => {
	it("searches, reads, browses and sums every shard; a shard gone is named", async () => {
		const url = `${nginx.url}/team`;
		const found = json(await lookback(["search", "dingo", "--remote", url, "--json"]));
		expect((found.results as { shard: string }[]).map((h) => h.shard).sort()).toEqual(["ci", "laptop"]);
		expect((found.unreachable as { shard: string }[]).map((u) => u.shard)).toEqual(["lost"]);
		const transfer = found.transfer as { requests: number; bytes: number };
		expect(transfer.requests).toBeGreaterThan(2);

		const read = json(await lookback(["read", ids.ci, "--full", "--remote", url, "--json"]));
		expect(read.shard).toBe("ci");
		expect(JSON.stringify(read.messages)).toContain("quollMiddleci");
		const browse = json(await lookback(["browse", "--remote", url, "--json"]));
		expect((browse.sessions as unknown[]).length).toBe(2);
		const usage = json(await lookback(["usage", "--remote", url, "--json"]));
		expect((usage.total as { sessions: number }).sessions).toBe(2);

		const range = await fetch(`${url}/lookback-team.json`, { headers: { range: "bytes=0-9", origin: "http://example.test" } });
		expect(range.status).toBe(206);
		expect(range.headers.get("access-control-allow-origin")).toBe("*");
		const publish = await lookback(["publish", url, "--as", "x", ...machine("x").args]);
		expect(publish.code).toBe(2);
		expect(publish.stderr).toContain("read-only");
	});
});
