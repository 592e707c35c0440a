/**
 * `npm run test:unit`: the tests that need nothing but Node 20 and this checkout — no browser, tmux, Bun, Node 22,
 * apt or registry — and no minute-long stress. `npm test` runs every test (vitest.config.ts).
 */
import { configDefaults, defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config.js";

export default mergeConfig(
	base,
	defineConfig({
		test: {
			exclude: [
				...configDefaults.exclude,
				"test/web/**", // headless Chromium
				"test/extension/pi-e2e.test.ts", // the real pi binary against a fake model
				"test/extension/pi-error.test.ts", // the real pi binary against a refusing fake provider
				"test/extension/pi-restore.test.ts", // the real pi binary resuming a restored session
				"test/extension/pi-overlay.test.ts", // pi's TUI in tmux
				"test/extension/pi-tui.test.ts", // pi's TUI in tmux
				"test/extension/pi-background.test.ts", // the real pi (and its TUI in tmux) on a generated 40 MB history
				"test/omp/omp-e2e.test.ts", // omp on Bun
				"test/mcp/gemini-e2e.test.ts", // Gemini CLI from the registry
				"test/mcp/claude-e2e.test.ts", // Claude Code from the registry
				"test/mcp/codex-e2e.test.ts", // Codex from the registry
				"test/mcp/opencode-e2e.test.ts", // OpenCode from the registry
				"test/engines/**", // node:sqlite (Node 22) and bun:sqlite
				"test/core/model-prices.test.ts", // Pi's current release in .tools (its model registry)
				"test/reliability/stress.test.ts", // one minute of killed writers, on every engine
				"test/package/**", // npm pack, npm install from the registry, pi install
				"test/agents/*-cli.test.ts", // the other agents' real CLIs, installed from the registry
				"test/golden/agents-golden.test.ts", // questions over sessions those real CLIs record
			],
		},
	}),
);
