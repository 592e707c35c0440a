#!/usr/bin/env node
/**
 * Writes src/agents/readers.ts and src/agents/node-registry.ts from the registry (src/agents/registry.ts), so that a
 * new agent is its folder and one line there: each agent folder's `reader.ts` exports its `AgentReader` and its
 * `node/index.ts` its `NodeAgent`, found here by their type. The two lists stay apart from the registry so that the
 * light faces (help, schemas, Pi's entry) load no parser (test/extension/load-cost.test.ts). `--check` writes
 * nothing and fails when either file is not what the registry makes (test/agents/registry.test.ts runs it).
 */

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const AGENTS_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "src", "agents");

/** The agents' folders in the registry's order: the names in `AGENTS = [...]`, each imported from `./<folder>/agent.js`. */
export function registryFolders(source = readFileSync(join(AGENTS_DIR, "registry.ts"), "utf8")) {
	const folderOf = new Map();
	for (const m of source.matchAll(/import \{ (\w+) \} from "\.\/([\w-]+)\/agent\.js";/g)) folderOf.set(m[1], m[2]);
	const list = /export const AGENTS = \[([^\]]*)\] as const;/.exec(source);
	if (!list) throw new Error("registry.ts: no `export const AGENTS = [...] as const;`");
	return list[1]
		.replace(/\/\/[^\n]*/g, "")
		.split(",")
		.map((name) => name.trim())
		.filter(Boolean)
		.map((name) => {
			const folder = folderOf.get(name);
			if (!folder) throw new Error(`registry.ts: ${name} is not imported from ./<folder>/agent.js`);
			return folder;
		});
}

function exported(file, type) {
	const m = new RegExp(`export const (\\w+): ${type}\\b`).exec(readFileSync(join(AGENTS_DIR, file), "utf8"));
	if (!m) throw new Error(`src/agents/${file} exports no const of type ${type}`);
	return m[1];
}

const MADE = "// Made by scripts/agent-lists.mjs from registry.ts: run it after adding an agent there, never edit by hand.";

function readersTs(folders) {
	const parts = folders.map((f) => ({ f, name: exported(join(f, "reader.ts"), "AgentReader") }));
	const imports = [
		`import type { AgentReader } from "./agent.js";`,
		...parts.map(({ f, name }) => `import { ${name} } from "./${f}/reader.js";`),
		`import { AGENT_KINDS, type AgentKind } from "./registry.js";`,
	].sort(byPath);
	return `/**
 * How each agent of the registry (registry.ts) is read, in core: keyed by its kind, so an agent listed there
 * without its reader does not compile. Apart from the registry so that the faces' light modules (schemas, help)
 * load no parser.
 */
${MADE}

${imports.join("\n")}

const READERS: Record<AgentKind, AgentReader> = {
${parts.map(({ f, name }) => `\t${key(f)}: ${name},`).join("\n")}
};

/** An agent's reader (Pi's for an agent not named: a file of a folder given by hand, before its first line is read). */
export function readerOf(kind: AgentKind | undefined): AgentReader {
	return (kind && READERS[kind]) || READERS.pi;
}

/** Every agent's reader with its kind, in the registry's order. */
export const AGENT_READERS: readonly (readonly [AgentKind, AgentReader])[] = AGENT_KINDS.map((kind) => [kind, READERS[kind]]);
`;
}

function nodeRegistryTs(folders) {
	const parts = folders.map((f) => ({ f, name: exported(join(f, "node", "index.ts"), "NodeAgent") }));
	const imports = [
		`import type { AgentWalk, NodeAgent } from "./node-agent.js";`,
		...parts.map(({ f, name }) => `import { ${name} } from "./${f}/node/index.js";`),
		`import { AGENT_KINDS, type AgentKind } from "./registry.js";`,
	].sort(byPath);
	return `/**
 * Each agent's Node part (node-agent.ts), keyed by its kind in the registry (registry.ts): an agent listed there
 * without one does not compile. Read only inside functions, never as a module loads (a loader that runs the sources
 * as CommonJS, Pi's jiti, may hand out a module half made while the imports go round).
 */
${MADE}

${imports.join("\n")}

const NODE_AGENTS: Record<AgentKind, NodeAgent> = {
${parts.map(({ f, name }) => `\t${key(f)}: ${name},`).join("\n")}
};

/** An agent's Node part. */
export function nodeAgent(kind: AgentKind): NodeAgent {
	return NODE_AGENTS[kind];
}

/** Every agent's Node part, in the registry's order. */
export function nodeAgents(): NodeAgent[] {
	return AGENT_KINDS.map((kind) => NODE_AGENTS[kind]);
}

let walks: Map<string, AgentWalk> | undefined;

/** The walk of a root's layout, whichever agent declares it; undefined for a layout no agent declares. */
export function layoutWalk(layout: string): AgentWalk | undefined {
	if (!walks) {
		walks = new Map();
		for (const agent of nodeAgents()) for (const [name, walk] of Object.entries(agent.walks)) walks.set(name, walk);
	}
	return walks.get(layout);
}
`;
}

const key = (folder) => (/^[A-Za-z_$][\w$]*$/.test(folder) ? folder : JSON.stringify(folder));
const byPath = (a, b) => {
	const pa = /from "([^"]+)"/.exec(a)[1];
	const pb = /from "([^"]+)"/.exec(b)[1];
	return pa < pb ? -1 : pa > pb ? 1 : 0;
};

/** The two files as the registry makes them. */
export function agentLists() {
	const folders = registryFolders();
	return { "readers.ts": readersTs(folders), "node-registry.ts": nodeRegistryTs(folders) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const check = process.argv.includes("--check");
	let stale = 0;
	for (const [file, text] of Object.entries(agentLists())) {
		const path = join(AGENTS_DIR, file);
		if (readFileSync(path, "utf8") === text) continue;
		if (check) {
			console.error(`src/agents/${file} is not what registry.ts makes: run node scripts/agent-lists.mjs`);
			stale++;
		} else writeFileSync(path, text);
	}
	if (stale) process.exit(1);
}
