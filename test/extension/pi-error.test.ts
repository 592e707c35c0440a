/**
 * The real Pi (each release of PI_RELEASES) writes a turn that its provider refused with the provider's message in
 * `errorMessage`; lookback finds the session by that message.
 */
import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LookbackIndex, memoryStorage } from "../../src/core/index.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileSource } from "../../src/node/file-source.js";
import { PI_RELEASES } from "../agents.js";
import { fakeModelsJson } from "../fake-model-server.mjs";
import { tempDir } from "../helpers.js";

const REFUSAL = "Third-party apps now draw from your extra usage, not your plan limits.";
let server: http.Server;
let url = "";

beforeAll(async () => {
	// A provider that refuses every request with a 400 and a message, as a real one did.
	server = http.createServer((req, res) => {
		req.resume();
		req.on("end", () => {
			res.writeHead(400, { "content-type": "application/json" });
			res.end(JSON.stringify({ error: { message: REFUSAL, type: "invalid_request_error" } }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe.each(PI_RELEASES)("a provider's error in $name", (release) => {
	it("is found by its message", async () => {
		const root = tempDir("pi-error");
		const [home, agentDir, cwd] = ["home", "agent", "proj"].map((d) => join(root, d));
		for (const d of [home, agentDir, cwd]) mkdirSync(d, { recursive: true });
		writeFileSync(join(agentDir, "models.json"), fakeModelsJson(url));
		const [exe, ...before] = release.command;
		const code = await new Promise<number | null>((resolve) => {
			const child = execFile(
				exe,
				[...before, "--provider", "fake", "--model", "fake-model", "-p", "hello there"],
				{
					cwd,
					env: { ...process.env, HOME: home, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1" },
					timeout: 60_000,
				},
				(error) => resolve(error ? ((error as { code?: number }).code ?? 1) : 0),
			);
			child.stdin?.end();
		});
		expect(code).not.toBe(0);
		const index = await LookbackIndex.open({ sql: await loadEngine(), storage: memoryStorage() });
		// The project sits under the temp folder, whose session folders a walk of the agent dir skips: index it directly.
		const [folder] = readdirSync(join(agentDir, "sessions"));
		await index.sync(fileSource([{ path: join(agentDir, "sessions", folder), layout: "flat", agent: "pi" }]));
		const hit = index.search({ query: "draw from your extra usage" }).results[0];
		expect(hit).toMatchObject({ role: "assistant" });
		expect(hit.snippet).toContain("«extra» «usage»");
	});
});
