/**
 * A team's bucket on an S3 API server started here (s3rver, from the npm registry): publishing and reading with the
 * credentials and endpoint of AWS's variables or a profile, machines publishing at once, and a wrong or expired
 * credential refused in one line that names no key.
 */

import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers.js";
import { filesUnder, json, lookback, machine, session } from "../team-helpers.js";
import { expiringProxy, freePort, type Running, s3Env, startS3 } from "../team-servers.js";

let s3: Running & { dir: string };
beforeAll(async () => {
	s3 = await startS3("team-bucket");
});
afterAll(() => s3.close());

type Hit = { shard: string };

describe("a team on S3 (s3rver)", () => {
	it("publishes and reads with AWS's variables; machines publishing at once are all listed; no key is written anywhere", async () => {
		const env = s3Env(s3.url);
		const url = "s3://team-bucket/eng/history";
		const machines = ["laptop", "devbox"].map((name, i) => {
			const m = machine(name);
			session(m, `kookaburra${i} rollout`, `middle kiwiWordInTheMiddle${i}`);
			return { name, m };
		});
		const runs = await Promise.all(machines.map(({ name, m }) => lookback(["publish", url, "--as", name, "--json", ...m.args], env)));
		for (const ran of runs) expect(ran.code, ran.stderr).toBe(0);

		const found = json(await lookback(["search", "rollout", "--remote", url, "--json"], env));
		expect((found.results as Hit[]).map((h) => h.shard).sort()).toEqual(["devbox", "laptop"]);
		const middle = json(await lookback(["search", "kiwiWordInTheMiddle1", "--json"], { ...env, LOOKBACK_REMOTE: url }));
		expect((middle.results as Hit[]).map((h) => h.shard)).toEqual(["devbox"]);
		expect((middle.transfer as { requests: number }).requests).toBeGreaterThan(0);

		// A small publish again: only what changed goes up.
		session(machines[0].m, "emu fallback");
		const again = json(await lookback(["publish", url, "--as", "laptop", "--json", ...machines[0].m.args], env));
		expect(again.generation).toBe(2);
		expect((json(await lookback(["search", "emu", "--remote", url, "--json"], env)).results as Hit[]).length).toBe(1);

		// The secret key is in no object of the bucket, no file lookback keeps, no line it printed.
		const secret = "S3RVER-secret-of-a-profile-xyz";
		const home = tempDir("home");
		writeFileSync(join(home, "credentials"), `[team]\naws_access_key_id = S3RVER\naws_secret_access_key = ${secret}\n`);
		const profileEnv = {
			HOME: home,
			AWS_SHARED_CREDENTIALS_FILE: join(home, "credentials"),
			AWS_PROFILE: "team",
			AWS_ENDPOINT_URL: s3.url,
			AWS_REGION: "us-east-1",
		};
		const viaProfile = await lookback(["publish", url, "--as", "devbox", ...machines[1].m.args], {
			...profileEnv,
			AWS_ACCESS_KEY_ID: "",
			AWS_SECRET_ACCESS_KEY: "",
		});
		expect(viaProfile.code, viaProfile.stderr).toBe(0);
		const kept = [...filesUnder(s3.dir), ...filesUnder(join(machines[1].m.args[4], ".."))];
		for (const f of kept) expect(f.bytes.includes(secret), f.path).toBe(false);
		expect(viaProfile.stdout + viaProfile.stderr).not.toContain(secret);
		expect(readdirSync(s3.dir).length).toBeGreaterThan(0);
	});

	it("a wrong key and an expired token are each refused in one line that names no secret", async () => {
		const m = machine("laptop");
		session(m, "cassowary");
		const url = "s3://team-bucket/refused";
		const wrong = await lookback(["publish", url, "--as", "laptop", ...m.args], {
			...s3Env(s3.url),
			AWS_ACCESS_KEY_ID: "NOT-A-KEY",
			AWS_SECRET_ACCESS_KEY: "wrong-secret-123",
		});
		expect(wrong.code).toBe(1);
		expect(wrong.stderr.trim().split("\n")).toHaveLength(1);
		expect(wrong.stderr).toMatch(/^lookback: s3:\/\/team-bucket\/refused refused the credentials \(environment\): InvalidAccessKeyId/);
		expect(wrong.stderr).not.toContain("wrong-secret-123");

		const proxy = await expiringProxy(s3.url);
		try {
			const expired = await lookback(["search", "cassowary", "--remote", url], {
				...s3Env(proxy.url),
				AWS_SESSION_TOKEN: "expired-token",
			});
			expect(expired.code).toBe(1);
			expect(expired.stderr.trim().split("\n")).toHaveLength(1);
			expect(expired.stderr).toContain("refused the credentials (environment): ExpiredToken");
		} finally {
			await proxy.close();
		}

		const nowhere = await lookback(["search", "cassowary", "--remote", url], { ...s3Env(`http://127.0.0.1:${await freePort()}`) });
		expect(nowhere.code).toBe(1);
		expect(nowhere.stderr.trim().split("\n")).toHaveLength(1);
		expect(nowhere.stderr).toMatch(/cannot reach s3:\/\/team-bucket\/refused .*ECONNREFUSED/);
	});
});
