// Proves src/core runs in a browser: bundling it for the browser fails on any Node built-in. The agents' core parts
// (src/agents/, all but each agent's node/ folder and the node-*.ts files beside the registry) are bundled as
// entries of their own too, so that one no core module imports yet is held to the same rule.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { secretlintInBrowser } from "./esbuild-plugins.mjs";

/** The agents' core-side modules: src/agents/**.ts outside node/ folders, less node-*.ts. */
function agentCoreFiles(dir = "src/agents") {
	return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
		const path = join(dir, e.name);
		if (e.isDirectory()) return e.name === "node" ? [] : agentCoreFiles(path);
		return e.name.endsWith(".ts") && !e.name.startsWith("node-") ? [path] : [];
	});
}

const agents = agentCoreFiles();
const result = await build({
	entryPoints: ["src/core/index.ts", ...agents],
	bundle: true,
	platform: "browser",
	format: "esm",
	outdir: "out",
	write: false,
	logLevel: "silent",
	plugins: [secretlintInBrowser],
}).catch((error) => {
	console.error(
		`src/core and the agents' core parts must not import Node modules:\n${error.errors.map((e) => `  ${e.text} (${e.location?.file}:${e.location?.line})`).join("\n")}`,
	);
	process.exit(1);
});
const core = result.outputFiles.find((f) => f.path.endsWith("/core/index.js")) ?? result.outputFiles[0];
console.log(
	`core bundles for the browser (${(core.contents.length / 1024).toFixed(0)} KB), and ${agents.length} modules of src/agents with it`,
);
