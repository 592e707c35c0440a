/**
 * `lookback restore` against a hostile folder: symlinks planted where its temp file used to be (a predictable name),
 * at the session's own name, and a session folder swapped for a link out of the roots. Nothing outside the roots is
 * written, read or truncated; a fuzz of planted links (fast-check) holds the same. (A link at the session's own name
 * and a folder swapped for a dangling link were refused before these changes too: those two tests are guards.)
 */

import {
	chmodSync,
	cpSync,
	existsSync,
	lstatSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cliInProcess } from "../cli-in-process.js";
import { FIXTURES, SAMPLE, tempDir } from "../helpers.js";

/** An agent dir with the samples indexed (and archived), and a victim file outside the roots. */
async function indexedHome() {
	const home = tempDir("home");
	const dir = join(home, "agent");
	mkdirSync(dir);
	cpSync(FIXTURES, join(dir, "sessions"), { recursive: true });
	expect((await cliInProcess(["index", "--agent-dir", dir])).code).toBe(0);
	const outside = join(home, "outside");
	mkdirSync(outside);
	const victim = join(outside, "precious.txt");
	writeFileSync(victim, "the user's own file\n");
	const name = (readdirSync(join(dir, "sessions"), { recursive: true }) as string[]).find((n) => n.includes(SAMPLE.bash))!;
	const path = join(dir, "sessions", name);
	return { home, dir, outside, victim, path, bytes: readFileSync(path) };
}

/** Every file under a folder with its bytes (links named as links). */
function contentsOf(dir: string): Record<string, string> {
	const out: Record<string, string> = {};
	for (const name of readdirSync(dir, { recursive: true }) as string[]) {
		const p = join(dir, name);
		const st = lstatSync(p);
		out[name] = st.isSymbolicLink() ? "link" : st.isFile() ? readFileSync(p, "utf8") : "dir";
	}
	return out;
}

describe("restore writes only inside the roots, through nothing planted", () => {
	it("a link planted at the temp name an older lookback used does not get its target truncated", async () => {
		const h = await indexedHome();
		rmSync(h.path);
		await cliInProcess(["index", "--agent-dir", h.dir]);
		// The old temp name: `.<file>.lookback-restore-<pid>`, the pid of this process (run() is in-process).
		symlinkSync(h.victim, join(dirname(h.path), `.${basename(h.path)}.lookback-restore-${process.pid}`));
		const r = await cliInProcess(["restore", SAMPLE.bash, "--agent-dir", h.dir]);
		expect(r.code, r.stderr).toBe(0);
		expect(readFileSync(h.victim, "utf8")).toBe("the user's own file\n");
		expect(readFileSync(h.path).equals(h.bytes)).toBe(true);
		expect(lstatSync(h.path).isFile()).toBe(true);
	});

	it("refuses a session folder swapped for a link out of the roots", async () => {
		const h = await indexedHome();
		const folder = dirname(h.path);
		rmSync(folder, { recursive: true });
		await cliInProcess(["index", "--agent-dir", h.dir]);
		symlinkSync(h.outside, folder);
		const before = contentsOf(h.outside);
		const r = await cliInProcess(["restore", SAMPLE.bash, "--agent-dir", h.dir]);
		expect(r.code).toBe(2);
		expect(r.stderr).toMatch(/^lookback: refusing to restore .*not inside the session folders once links are resolved/);
		expect(contentsOf(h.outside)).toEqual(before);
	});

	it("refuses a session folder swapped for a dangling link, where the folder would be made outside", async () => {
		const h = await indexedHome();
		const folder = dirname(h.path);
		rmSync(folder, { recursive: true });
		await cliInProcess(["index", "--agent-dir", h.dir]);
		symlinkSync(join(h.outside, "made-here"), folder);
		const before = contentsOf(h.outside);
		const r = await cliInProcess(["restore", SAMPLE.bash, "--agent-dir", h.dir]);
		expect(r.code).not.toBe(0);
		expect(contentsOf(h.outside)).toEqual(before);
	});

	it("refuses a link at the session's own name, dangling or not, and follows neither", async () => {
		for (const target of ["victim", "dangling"] as const) {
			const h = await indexedHome();
			rmSync(h.path);
			await cliInProcess(["index", "--agent-dir", h.dir]);
			const to = target === "victim" ? h.victim : join(h.outside, "would-be-created.jsonl");
			symlinkSync(to, h.path);
			const r = await cliInProcess(["restore", SAMPLE.bash, "--agent-dir", h.dir]);
			expect(r.code, target).toBe(1);
			expect(r.stderr).toContain("refusing to restore");
			expect(readFileSync(h.victim, "utf8")).toBe("the user's own file\n");
			expect(existsSync(join(h.outside, "would-be-created.jsonl"))).toBe(false);
		}
	});

	it("fuzz: whatever links are planted beside the session, nothing outside changes, and a restore is whole or refused", async () => {
		const h = await indexedHome();
		rmSync(h.path);
		await cliInProcess(["index", "--agent-dir", h.dir]);
		const folder = dirname(h.path);
		const base = basename(h.path);
		const names = [base, `.${base}.lookback-restore-${process.pid}`, `.${base}.tmp`, `${base}.tmp`, `.${base}`];
		const targets = [h.victim, h.outside, join(h.outside, "new.jsonl"), "/", folder];
		await fc.assert(
			fc.asyncProperty(
				fc.uniqueArray(fc.record({ name: fc.constantFrom(...names), to: fc.constantFrom(...targets) }), {
					selector: (p) => p.name,
					maxLength: 4,
				}),
				fc.boolean(),
				async (plants, swapFolder) => {
					rmSync(folder, { recursive: true, force: true });
					if (swapFolder) symlinkSync(h.outside, folder);
					else mkdirSync(folder);
					if (!swapFolder) for (const p of plants) symlinkSync(p.to, join(folder, p.name));
					const before = contentsOf(h.outside);
					const r = await cliInProcess(["restore", SAMPLE.bash, "--agent-dir", h.dir]);
					expect(contentsOf(h.outside)).toEqual(before);
					expect(readFileSync(h.victim, "utf8")).toBe("the user's own file\n");
					if (r.code === 0) {
						expect(lstatSync(h.path).isFile()).toBe(true);
						expect(readFileSync(h.path).equals(h.bytes)).toBe(true);
						rmSync(h.path);
					}
					if (!swapFolder && !plants.some((p) => p.name === base)) expect(r.code, r.stderr).toBe(0);
				},
			),
			{ numRuns: 40 },
		);
	});
});

describe("lookback's own files are private whatever the umask; a restored file gets its mode back", () => {
	it("index, lock folder, archive, exports and restored files under umask 022 and 000", async () => {
		for (const umask of [0o022, 0o000]) {
			const old = process.umask(umask);
			try {
				const home = tempDir("home");
				const dir = join(home, "agent");
				mkdirSync(dir);
				cpSync(FIXTURES, join(dir, "sessions"), { recursive: true });
				const files = (readdirSync(join(dir, "sessions"), { recursive: true }) as string[]).filter((n) => n.endsWith(".jsonl"));
				const secret = join(dir, "sessions", files.find((n) => n.includes(SAMPLE.bash))!);
				const shared = join(dir, "sessions", files.find((n) => n.includes(SAMPLE.decision))!);
				chmodSync(secret, 0o600);
				chmodSync(shared, 0o640);
				expect((await cliInProcess(["index", "--agent-dir", dir])).code).toBe(0);
				const mode = (p: string) => statSync(p).mode & 0o777;
				const own = join(dir, "lookback");
				expect(mode(own)).toBe(0o700);
				for (const name of readdirSync(own, { recursive: true }) as string[]) {
					const p = join(own, name);
					expect(mode(p), `${name} under umask ${umask.toString(8)}`).toBe(statSync(p).isDirectory() ? 0o700 : 0o600);
				}
				expect(readdirSync(own)).toEqual(expect.arrayContaining(["index.db", "index.db.locks", "archive"]));
				const out = join(home, "export.md");
				expect((await cliInProcess(["export", SAMPLE.bash, "--agent-dir", dir, "--out", out])).code).toBe(0);
				expect(mode(out)).toBe(0o600);
				rmSync(secret);
				rmSync(shared);
				await cliInProcess(["index", "--agent-dir", dir]);
				for (const id of [SAMPLE.bash, SAMPLE.decision]) expect((await cliInProcess(["restore", id, "--agent-dir", dir])).code).toBe(0);
				expect(mode(secret)).toBe(0o600);
				expect(mode(shared)).toBe(0o640);
			} finally {
				process.umask(old);
			}
		}
	});
});
