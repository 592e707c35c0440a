// Proves src/core runs in a browser: bundling it for the browser fails on any Node built-in.
import { build } from "esbuild";
import { secretlintInBrowser } from "./esbuild-plugins.mjs";

const result = await build({
	entryPoints: ["src/core/index.ts"],
	bundle: true,
	platform: "browser",
	format: "esm",
	write: false,
	logLevel: "silent",
	plugins: [secretlintInBrowser],
}).catch((error) => {
	console.error(
		`src/core must not import Node modules:\n${error.errors.map((e) => `  ${e.text} (${e.location?.file}:${e.location?.line})`).join("\n")}`,
	);
	process.exit(1);
});
console.log(`core bundles for the browser (${(result.outputFiles[0].contents.length / 1024).toFixed(0)} KB)`);
