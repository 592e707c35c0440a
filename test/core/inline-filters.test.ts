import { describe, expect, it } from "vitest";
import { AGENT_KINDS } from "../../src/agents/registry.js";
import { splitInlineFilters } from "../../src/core/index.js";

describe("filters typed in the query line", () => {
	it("splits project:, since:, until: and role: from the words searched", () => {
		expect(splitInlineFilters('deadlock project:inventory since:2w role:user,assistant "sku order" until:2026-11-01')).toEqual({
			query: 'deadlock "sku order"',
			filters: { project: "inventory", since: "2w", until: "2026-11-01", role: ["user", "assistant"] },
		});
	});

	it("leaves quoted text and other colons alone, and ignores a filter still being typed", () => {
		expect(splitInlineFilters('"project:x y" http://host:8080 project:')).toEqual({ query: '"project:x y" http://host:8080', filters: {} });
	});

	it("names an unknown role", () => {
		expect(splitInlineFilters("retry role:robot").error).toMatch(/unknown role robot/);
	});

	it("takes agent: as one of the agents, and names any other", () => {
		expect(splitInlineFilters("migration agent:OpenCode")).toEqual({ query: "migration", filters: { agent: "opencode" } });
		expect(splitInlineFilters("migration agent:cursor").error).toContain(`unknown agent cursor (agents: ${AGENT_KINDS.join(", ")})`);
		expect(AGENT_KINDS.slice(0, 6)).toEqual(["pi", "omp", "claude", "codex", "gemini", "opencode"]);
	});
});
