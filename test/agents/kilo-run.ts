/** Runs the real Kilo Code binary (installed by scripts/agents/ensure-kilo.mjs) with its XDG dirs in a temp home, against the fake OpenCode model. */

import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fakeOpencodeConfig } from "./fake-opencode-server.mjs";
import { type OpencodeRun, opencodeEnv, runStoreCli } from "./opencode-run.js";

const TOOLS = join(import.meta.dirname, "..", "..", ".tools", "kilo", "node_modules", "@kilocode");

/** The platform package's binary (`@kilocode/cli-<os>-<arch>[-baseline][-musl]`), whichever ensure-kilo installed. */
export function kiloBin(): string | undefined {
	if (!existsSync(TOOLS)) return undefined;
	const name = readdirSync(TOOLS).find((n) => n.startsWith(`cli-${process.platform === "win32" ? "windows" : process.platform}-`));
	const bin = name ? join(TOOLS, name, "bin", "kilo") : undefined;
	return bin && existsSync(bin) ? bin : undefined;
}

/** Writes kilo.json into the home's config dir, pointing at the fake model (the provider OpenCode's tests use). */
export function configureKilo(home: string, modelUrl: string): void {
	mkdirSync(join(home, "config", "kilo"), { recursive: true });
	const { $schema: _, ...config } = JSON.parse(fakeOpencodeConfig(modelUrl));
	writeFileSync(join(home, "config", "kilo", "kilo.json"), JSON.stringify(config));
}

/** `kilo <args>` in `cwd`, with the home's XDG dirs (Kilo keeps its database in `data/kilo/`) and nothing fetched. */
export function startKilo(args: string[], options: { cwd: string; home: string }): Promise<OpencodeRun> {
	const bin = kiloBin();
	if (!bin) throw new Error("Kilo Code is not installed: node scripts/agents/ensure-kilo.mjs");
	return runStoreCli(bin, args, options.cwd, {
		PATH: process.env.PATH ?? "",
		...opencodeEnv(options.home),
		KILO_DISABLE_MODELS_FETCH: "1",
		KILO_DISABLE_AUTOUPDATE: "1",
		KILO_DISABLE_SHARE: "1",
		KILO_DISABLE_LSP_DOWNLOAD: "1",
		NO_COLOR: "1",
	});
}

/** `kilo run --auto --format json -m fake/m <prompt>` (`-s` to resume a session). */
export function runKilo(prompt: string, options: { cwd: string; home: string; session?: string }): Promise<OpencodeRun> {
	return startKilo(
		["run", "--auto", "--format", "json", "-m", "fake/m", ...(options.session ? ["-s", options.session] : []), ...prompt.split(" ")],
		options,
	);
}
