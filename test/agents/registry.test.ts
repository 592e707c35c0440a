/**
 * The registry is the one list of agents (src/agents/registry.ts): each agent's folder holds its parts, every face's
 * list of agents follows the registry, and README's table names each agent with the environment variables that
 * move its files (the Node part's `env`).
 */

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { layoutWalk, nodeAgent } from "../../src/agents/node-registry.js";
import { AGENT_KINDS, AGENTS, isAgentKind } from "../../src/agents/registry.js";
import { parseArgs } from "../../src/cli/args.js";
import { type CliIO, checkCommand, indexOptions } from "../../src/cli/command-line.js";
import { HELP } from "../../src/cli/help.js";
import { sessionSearchParams } from "../../src/extension/params.js";
import { TOOL_SPECS } from "../../src/mcp/tool-specs.js";
import { REPO } from "../agents.js";

const AGENTS_DIR = join(REPO, "src", "agents");

/** README's first table: agent → its row. */
function readmeRows(): { agent: string; row: string }[] {
	const readme = readFileSync(join(REPO, "README.md"), "utf8");
	const table = readme.slice(readme.indexOf("| agent | read from |"));
	const lines = table.split("\n");
	const end = lines.findIndex((line) => !line.startsWith("|"));
	return lines.slice(2, end).map((row) => ({ agent: row.split("|")[1].trim(), row }));
}

describe("the agents' registry", () => {
	it("gives every agent an id shape that takes no shell word, no option and no path (ids come from files)", () => {
		for (const agent of AGENTS) {
			expect(agent.idShape.source, agent.kind).toMatch(/^\^.*\$$/);
			for (const id of ["x; touch PWNED #", "a$(id)", "`id`", "-rf", "../../etc", "a/b", "a b", "a'b", "a\nb", ""])
				expect(agent.idShape.test(id), `${agent.kind}: ${id}`).toBe(false);
		}
	});

	it("lists every agent folder, and each folder holds its facts, its reader and its Node part", () => {
		const folders = readdirSync(AGENTS_DIR, { withFileTypes: true })
			.filter((e) => e.isDirectory())
			.map((e) => e.name)
			.sort();
		expect(folders).toEqual([...AGENT_KINDS].sort());
		for (const kind of AGENT_KINDS)
			for (const part of ["agent.ts", "reader.ts", join("node", "index.ts")])
				expect(existsSync(join(AGENTS_DIR, kind, part)), `${kind}/${part}`).toBe(true);
		expect(AGENTS.map((a) => a.kind)).toEqual([...AGENT_KINDS]);
		expect(isAgentKind("claude")).toBe(true);
		expect(isAgentKind("cursor")).toBe(false);
	});

	it("gives each layout one walk, and every root an agent makes a layout that is walked", () => {
		const names = AGENT_KINDS.flatMap((kind) => Object.keys(nodeAgent(kind).walks));
		expect(new Set(names).size).toBe(names.length);
		const at = { env: { HOME: "/home/someone" }, agentDir: "/home/someone/.pi/agent", dirs: { omp: "/home/someone/.omp/agent" } };
		for (const kind of AGENT_KINDS)
			for (const root of nodeAgent(kind).roots(at)) {
				expect(layoutWalk(root.layout), `${kind}: ${root.layout}`).toBeDefined();
				if (root.agent) expect(root.agent).toBe(kind);
			}
	});

	it("is the list of the CLI's --agent values, the tool's and MCP's enums", () => {
		expect(HELP).toContain(`only sessions of one agent: ${AGENT_KINDS.join(", ")}`);
		for (const agent of AGENTS) expect(HELP.split("\n")[0]).toContain(agent.label);
		expect((sessionSearchParams.properties.agent as unknown as { enum: string[] }).enum).toEqual([...AGENT_KINDS]);
		for (const spec of TOOL_SPECS) {
			const agent = spec.inputSchema.properties?.agent as { enum?: string[] } | undefined;
			if (agent) expect(agent.enum).toEqual([...AGENT_KINDS]);
		}
		// An agent's option naming its own folder is in the help and parsed as a common option.
		expect(HELP).toContain("--omp-agent-dir DIR   oh-my-pi's agent dir (default ~/.omp/agent)");
		const args = parseArgs(["search", "x", "--omp-agent-dir", "/somewhere"]);
		checkCommand(args);
		expect(indexOptions(args, { env: {} } as CliIO).agentDirs).toEqual({ omp: "/somewhere" });
	});

	it("makes the lists of readers and Node parts from its one line per agent (scripts/agent-lists.mjs)", async () => {
		// @ts-expect-error: a build script, untyped
		const { agentLists } = await import("../../scripts/agent-lists.mjs");
		for (const [file, text] of Object.entries(agentLists() as Record<string, string>))
			expect(readFileSync(join(AGENTS_DIR, file), "utf8"), `${file}: run node scripts/agent-lists.mjs`).toBe(text);
	});

	it("matches README's table: one row per agent in the registry's order, naming the variables that move its files", () => {
		const rows = readmeRows();
		expect(rows.map((r) => r.agent)).toEqual(AGENTS.map((a) => (rows.some((r) => r.agent === a.label) ? a.label : a.kind)));
		for (const [i, agent] of AGENTS.entries())
			for (const variable of nodeAgent(agent.kind).env) expect(rows[i].row, `${agent.kind}: ${variable}`).toContain(variable);
	});
});
