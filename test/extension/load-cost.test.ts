/**
 * What Pi loads with the extension before any search: the modules its entry imports (dynamic imports, which
 * load with the first search or command, left out), and the bundle of what it registers with
 * (dist/extension-entry.cjs). Counted from esbuild's metafiles: Pi runs each module of the entry through jiti at
 * every start, and Node parses the bundle, so the engine, the parsers, the index and the replies must be in neither.
 */
import { isBuiltin } from "node:module";
import { join } from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a build script, untyped
import { ENTRY_BUNDLE } from "../../scripts/build-host.mjs";
import { EXTENSION, REPO } from "../agents.js";

const HEAVY = [
	/^src\/core\/(sync|search|store|replies\/(?!sync-state)|parse\/formats|index\.ts)/,
	/^src\/node\/(engine|open|file-source|indexer-work)\.ts$/,
	/^src\/extension\/(run-tool|command|overlay)\.ts$/,
	// The agents' parsers and Node parts: the registry's facts (names, labels) are all the entry may load of them.
	/^src\/agents\/(readers|node-registry)\.ts$/,
	/^src\/agents\/[^/]+\/(format|reader)\.ts$/,
];

async function staticModules(entry: string): Promise<string[]> {
	const result = await build({
		entryPoints: [entry],
		absWorkingDir: REPO,
		bundle: true,
		platform: "node",
		format: "esm",
		write: false,
		metafile: true,
		logLevel: "silent",
		// Pi's own packages come from Pi (already loaded); the others would be ours to load.
		external: ["@mariozechner/*", "@sinclair/typebox"],
	});
	const inputs = result.metafile.inputs;
	const seen = new Set<string>();
	const visit = (path: string) => {
		if (seen.has(path)) return;
		seen.add(path);
		for (const i of inputs[path]?.imports ?? []) if (i.kind === "import-statement" && !i.external) visit(i.path);
	};
	visit(Object.keys(inputs).find((p) => EXTENSION.endsWith(p))!);
	return [...seen].sort();
}

describe("the extension's entry", () => {
	it("runs three small modules through Pi's jiti, the rest of what it registers with as one bundle", async () => {
		const modules = await staticModules(EXTENSION);
		expect(modules).toEqual(["src/extension/bundle-loader.ts", "src/extension/index.ts", "src/node/built-files.ts"]);
		for (const heavy of [...HEAVY, /node_modules/]) expect(modules.filter((m) => heavy.test(m))).toEqual([]);
	});

	it("bundles no engine, parser, index or reply with what the entry registers with", async () => {
		const result = await build({ ...ENTRY_BUNDLE, absWorkingDir: REPO, write: false, metafile: true, logLevel: "silent" });
		const modules = Object.keys(result.metafile?.inputs ?? {});
		expect(modules).toContain("src/extension/params.ts");
		expect(modules).toContain("src/node/host-index.ts");
		// The renderers too, with no Pi package: the entry hands them the host's Text component.
		expect(modules).toContain("src/extension/render.ts");
		expect(result.metafile?.outputs["dist/extension-entry.cjs"]?.imports.filter((i) => i.path.startsWith("@mariozechner/"))).toEqual([]);
		for (const heavy of [...HEAVY, /node_modules\/(?!@sinclair\/typebox)/]) expect(modules.filter((m) => heavy.test(m))).toEqual([]);
	});

	it("leaves the tool's half to a bundle Node loads itself, with no Pi package in it", async () => {
		const result = await build({
			entryPoints: [join(REPO, "src", "extension", "tool-entry.ts")],
			bundle: true,
			platform: "node",
			format: "cjs",
			write: false,
			metafile: true,
			logLevel: "silent",
			external: ["@mariozechner/*", "@sinclair/typebox"],
		});
		const externals = Object.values(result.metafile.inputs).flatMap((i) => i.imports.filter((x) => x.external).map((x) => x.path));
		expect(externals.filter((p) => !isBuiltin(p) && p !== "bun:sqlite")).toEqual([]);
	});
});
