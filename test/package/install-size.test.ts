/**
 * The package installed as a user installs it: `npm pack`, then `npm install -g` of the tarball into a temporary
 * prefix from npm's cache (--prefer-offline), with no warning (no engine a dependency wants that `engines` does not
 * say, no install script) and at most 30 MB installed. Needs `npm run build` first.
 */
import { execFile } from "node:child_process";
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO } from "../agents.js";

const MAX_INSTALLED_BYTES = 30e6;

function npm(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
	// Without what `npm test` passes down (npm_config_local_prefix would point this npm at the repo).
	const env = Object.fromEntries(
		Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) || /^npm_config_(cache|registry)$/i.test(k)),
	);
	return new Promise((resolve) => {
		execFile("npm", args, { cwd, env, encoding: "utf8", timeout: 240_000, maxBuffer: 64 << 20 }, (error, stdout, stderr) =>
			resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
		);
	});
}

function bytesUnder(path: string): number {
	const stat = lstatSync(path);
	if (!stat.isDirectory()) return stat.size;
	return readdirSync(path).reduce((sum, name) => sum + bytesUnder(join(path, name)), 0);
}

/** The least major version of Node a range such as ">=20", ">= 18.0.0", "^20.19.0 || >=22.12" admits. */
function leastMajor(range: string): number {
	return Math.min(...range.split("||").map((part) => Number(part.match(/(\d+)/)?.[1] ?? 0)));
}

const scratch = mkdtempSync(join(tmpdir(), "lookback-install-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the package installed from its tarball", () => {
	it("ships no maps, tests, C sources or smoke page, installs without a warning, and takes at most 30 MB", async () => {
		expect(existsSync(join(REPO, "dist", "cli.js")), "run `npm run build` first").toBe(true);
		const pack = await npm(["pack", "--ignore-scripts", "--json", "--pack-destination", scratch], REPO);
		expect(pack.code, pack.stderr).toBe(0);
		const [packed] = JSON.parse(pack.stdout) as { filename: string; size: number; unpackedSize: number; files: { path: string }[] }[];
		const paths = packed.files.map((f) => f.path);
		expect(paths.filter((p) => p.endsWith(".map") || p.includes("smoke") || p.startsWith("wasm/vendor") || p.startsWith("test/"))).toEqual(
			[],
		);
		expect(paths).toContain("wasm/dist/sql-wasm.wasm");
		const manifest = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8"));
		expect(manifest.scripts.prepare).toBeUndefined();
		expect(manifest.scripts.install ?? manifest.scripts.postinstall ?? manifest.scripts.preinstall).toBeUndefined();

		const prefix = join(scratch, "prefix");
		const install = await npm(
			["install", "-g", "--prefix", prefix, "--prefer-offline", "--no-audit", "--no-fund", join(scratch, packed.filename)],
			scratch,
		);
		expect(install.code, install.stderr).toBe(0);
		expect(`${install.stdout}${install.stderr}`.split("\n").filter((l) => /npm warn/i.test(l))).toEqual([]);

		const installed = join(prefix, "lib", "node_modules", "lookback");
		const bytes = bytesUnder(installed);
		console.log(
			`tarball ${(packed.size / 1e6).toFixed(2)} MB, unpacked ${(packed.unpackedSize / 1e6).toFixed(2)} MB, installed ${(bytes / 1e6).toFixed(1)} MB`,
		);
		expect(bytes).toBeLessThanOrEqual(MAX_INSTALLED_BYTES);
		// Every package installed beside it runs on the Node that `engines` names.
		const ours = leastMajor(manifest.engines.node);
		const modules = join(installed, "node_modules");
		const names = readdirSync(modules).flatMap((n) => (n.startsWith("@") ? readdirSync(join(modules, n)).map((m) => `${n}/${m}`) : [n]));
		for (const name of names.filter((n) => !n.startsWith("."))) {
			const engines = JSON.parse(readFileSync(join(modules, name, "package.json"), "utf8")).engines?.node;
			if (engines) expect(leastMajor(engines), `${name} wants Node ${engines}`).toBeLessThanOrEqual(ours);
		}
	}, 300_000);
});
