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

/**
 * For the command line's bundle: the MCP SDK's Server imports its Ajv-based validator of elicitation answers
 * (Ajv and ajv-formats: 7 ms of evaluation and their compile at every `lookback mcp` start) only to make one when
 * none is given. `lookback mcp` gives its own (it asks the client nothing, src/mcp/server.ts), so the import
 * resolves to a class that says so if it is ever made.
 */
export const mcpWithoutAjv = {
	name: "mcp-without-ajv",
	setup(build) {
		build.onResolve({ filter: /[\\/]validation[\\/]ajv-provider\.js$/ }, (args) =>
			/[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]server[\\/]/.test(args.importer)
				? { path: args.path, namespace: "mcp-without-ajv" }
				: undefined,
		);
		build.onLoad({ filter: /.*/, namespace: "mcp-without-ajv" }, () => ({
			contents:
				'export class AjvJsonSchemaValidator { constructor() { throw new Error("lookback mcp gives the SDK its own jsonSchemaValidator"); } }',
			loader: "js",
		}));
	},
};
