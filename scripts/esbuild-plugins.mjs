// An esbuild plugin for secretlint's rule preset (@secretlint/secretlint-rule-preset-recommend), which core's
// redaction loads (src/core/redact/secretlint.ts).

const PRESET = /[\\/]@secretlint[\\/]secretlint-rule-preset-recommend[\\/]/;

/**
 * For browser bundles: the preset imports node:path (and node:fs, node:crypto on demand) for the rules that read
 * a key file by its name. lookback hands the rules text without a file name, so those imports are never used:
 * in a browser they resolve to an empty module. Any other Node built-in, or these imported from anywhere else,
 * still fails the bundle (scripts/check-core-browser.mjs relies on that).
 */
export const secretlintInBrowser = {
	name: "secretlint-in-browser",
	setup(build) {
		build.onResolve({ filter: /^node:(path|fs|crypto)$/ }, (args) =>
			PRESET.test(args.importer) ? { path: args.path, namespace: "unused-node-builtin" } : undefined,
		);
		build.onLoad({ filter: /.*/, namespace: "unused-node-builtin" }, () => ({ contents: "export default {};", loader: "js" }));
	},
};
