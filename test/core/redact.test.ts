/**
 * Redaction: every kind of secret planted is replaced by a marker naming its kind, by secretlint's recommended
 * rules or by lookback's own (each of which is tested here); ordinary session text is left as it is.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { findSecrets, loadRedaction, redactText, redactValue } from "../../src/core/index.js";
import { PLANTED, PLANTED_TEXT } from "../secrets.js";

describe("redaction before its rules are loaded", () => {
	it("refuses, rather than let a secret through unseen", () => {
		expect(() => redactText("ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")).toThrow(/await loadRedaction\(\) first/);
		expect(() => redactText("short")).toThrow(/not loaded/);
	});
});

describe("redaction", () => {
	beforeAll(() => loadRedaction());

	for (const p of PLANTED)
		it(`replaces ${p.kind} (${p.by === "secretlint" ? "secretlint's rules" : "lookback's own rule"})`, () => {
			const tally = {};
			const out = redactText(p.text, tally);
			expect(out).not.toContain(p.secret);
			expect(out).toContain(`[REDACTED:${p.kind}]`);
			expect(tally).toEqual({ [p.kind]: 1 });
		});

	it("leaves what is not secret readable around the marker: the host of a URL, the name of a variable", () => {
		expect(redactText("curl https://deploy:Tr0ub4dor-3x@ci.example.com/hooks/build")).toBe(
			"curl https://deploy:[REDACTED:basic-auth]@ci.example.com/hooks/build",
		);
		expect(redactText('SMTP_PASSWORD="correct horse battery staple"')).toBe('SMTP_PASSWORD="[REDACTED:env-password]"');
		expect(redactText("REDIS=redis://:r3d1s-pw-991@cache.internal:6379/0")).toBe(
			"REDIS=redis://:[REDACTED:url-password]@cache.internal:6379/0",
		);
	});

	it("finds an assignment inside a command line, and in a JSON string whose quotes are escaped (a tool call's arguments)", () => {
		expect(redactText("cd app && SMTP_PASSWORD=s3cr3t-pw ./send-mail --to ops")).toBe(
			"cd app && SMTP_PASSWORD=[REDACTED:env-password] ./send-mail --to ops",
		);
		// At the start of a line too, an unquoted value ends at a space, as a shell reads it: the command stays.
		expect(redactText("PGPASSWORD=s3cr3t-pw pg_dump -h db shop > shop.sql")).toBe(
			"PGPASSWORD=[REDACTED:env-password] pg_dump -h db shop > shop.sql",
		);
		const args = JSON.stringify({ command: 'echo API_TOKEN="tok en with spaces" && curl -d \'{"password": "hunter2-but-longer"}\'' });
		const out = redactText(args);
		expect(out).not.toContain("tok en with spaces");
		expect(out).not.toContain("hunter2-but-longer");
		expect(out).toContain('API_TOKEN=\\"[REDACTED:env-secret]\\"');
		expect(out).toContain('\\"password\\": \\"[REDACTED:password]\\"');
	});

	it("covers the whole key where a rule's range is off (secretlint's AWS rule reports the name and part of the key)", () => {
		const out = redactText("aws_secret_access_key = q8Hk2VbN7xP0wLmE4rT6yU1iO9aS3dF5gJ7hK2lZ");
		expect(out).toBe("aws_secret_access_key = [REDACTED:aws-secret-access-key]");
	});

	it("finds every planted secret in one text, in order, none overlapping", () => {
		const found = findSecrets(PLANTED_TEXT);
		expect(found.length).toBeGreaterThanOrEqual(PLANTED.length);
		for (let i = 1; i < found.length; i++) expect(found[i].start).toBeGreaterThanOrEqual(found[i - 1].end);
		const out = redactText(PLANTED_TEXT);
		for (const p of PLANTED) expect(out).not.toContain(p.secret);
	});

	it("leaves ordinary session text alone: code, paths, hashes, ids, placeholders and example keys", () => {
		const ordinary = [
			"const token = await getToken(); // the token comes from the login flow",
			["PASSWORD=$", "{DB_PASSWORD}"].join(""), // a reference to a variable, not a value
			"API_KEY=<your key here>",
			"password: string;",
			'"tokenizer": "unicode61 remove_diacritics 2"',
			"commit 3f9c2a1e7b4d4c8e9a516d2e8f0b7c34 and session 01a120c2-3180-7535-afae-76d8368b3493",
			"see https://github.com/acme/app/pull/42 and git@github.com:acme/app.git",
			"AWS's documented example key AKIAIOSFODNN7EXAMPLE",
			"/home/dev/projects/webshop/src/queue/orderQueue.ts:12:5",
			"SELECT entry_id, parent_id FROM entries WHERE session = ? ORDER BY seq",
			// Code that assigns to a secret's name: a call, a member, a keyword argument.
			"    format_token = self.cost_future.sync_backoff(search_proxy, RESTORE_BUCKET)",
			"api_key = config.openai.apiKey",
			"handler.min_link(dispatch_token=min_link)",
			// Ports, users and ids on a command line.
			"docker run -u 1000:1000 -p 8080:80 -v $PWD:/app node:22 npm test",
			"mysql -u root -P 3306 -p shop < dump.sql",
			// An environment dump: the working directories are not passwords, a switch is not a secret.
			"PWD=/home/dev/projects/webshop\nOLDPWD=/home/dev\nSSL_BYPASS=true",
		].join("\n");
		expect(findSecrets(ordinary)).toEqual([]);
		expect(redactText(ordinary)).toBe(ordinary);
	});

	it("redacts a snippet whose match marks split a key, and keeps the marks of a snippet without one", () => {
		const key = PLANTED.find((p) => p.kind === "github-token")!.secret;
		const marked = `push with «${key.slice(0, 10)}»${key.slice(10)} to origin`;
		expect(redactText(marked)).toBe("push with [REDACTED:github-token] to origin");
		// Another, whole key in the same snippet does not stop the split one being seen.
		const npm = PLANTED.find((p) => p.kind === "npm-access-token")!.secret;
		expect(redactText(`${npm} then «${key.slice(0, 10)}»${key.slice(10)}`)).toBe(
			"[REDACTED:npm-access-token] then [REDACTED:github-token]",
		);
		expect(redactText("the «queue» worker")).toBe("the «queue» worker");
	});

	it("redacts every string of a reply but the ids and paths a next call passes back", () => {
		const key = PLANTED.find((p) => p.kind === "stripe-secret-key-live")!.secret;
		const reply = {
			mode: "read",
			session: { sessionId: "01a120c2", path: "/s/a.jsonl", name: `set ${key}` },
			messages: [{ entryId: "e1", text: `use ${key}`, role: "user" }],
			total: 1,
		};
		const tally = {};
		expect(redactValue(reply, tally)).toEqual({
			mode: "read",
			session: { sessionId: "01a120c2", path: "/s/a.jsonl", name: "set [REDACTED:stripe-secret-key-live]" },
			messages: [{ entryId: "e1", text: "use [REDACTED:stripe-secret-key-live]", role: "user" }],
			total: 1,
		});
		expect(tally).toEqual({ "stripe-secret-key-live": 2 });
		expect(reply.messages[0].text).toBe(`use ${key}`);
	});

	it("never lets a transcript switch redaction off with secretlint's comment directives", () => {
		const key = PLANTED.find((p) => p.kind === "npm-access-token")!.secret;
		expect(redactText(`// secretlint-disable\n${key}\n// secretlint-enable`)).not.toContain(key);
	});
});
