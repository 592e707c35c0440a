/**
 * Ids read from files never form paths unchecked: an OpenCode JSON tree (before 1.2) whose session `id`, message `id`
 * and `parentID` climb out with `../`, and whose folders and files are links out of the tree. The walk and the read
 * of its sessions reach nothing outside the tree; the sessions are still indexed, as far as they lie inside; and
 * restore names its import file by a checked id only.
 */

import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { idAsName } from "../../src/agents/agent.js";
import { LookbackIndex, memoryStorage } from "../../src/core/index.js";
import { loadEngine } from "../../src/node/engine.js";
import { fileSource } from "../../src/node/file-source.js";
import { tempDir } from "../helpers.js";

const put = (path: string, value: unknown) => {
	mkdirSync(dirname(path), { recursive: true });
	writeFileSync(path, JSON.stringify(value));
};

/** What lies outside the tree: messages and parts an id or a link would reach, each with a word of its own. */
function outside(root: string) {
	const word = (w: string) => ({ id: "prt_out", type: "text", text: `outside ${w}` });
	put(join(root, "leak", "msg_leak.json"), { id: "msg_leak", role: "user", time: { created: 1 } });
	put(join(root, "part", "msg_leak", "prt_leak.json"), word("quokkaclimbed"));
	put(join(root, "leakpart", "prt_l.json"), word("quokkapart"));
	put(join(root, "linked", "msg_link.json"), { id: "msg_link", role: "user", time: { created: 1 } });
	put(join(root, "linkedpart", "prt_k.json"), word("quokkalinked"));
	put(join(root, "file.json"), word("quokkafile"));
}

function hostileTree(root: string): string {
	const storage = join(root, "data", "opencode", "storage");
	const t = 1_760_000_000_000;
	// 1. A session whose id climbs out of message/ to <root>/leak.
	put(join(storage, "session", "p1", "ses_climb.json"), {
		id: "../../../../leak",
		directory: "/home/u/app",
		title: "climb",
		time: { created: t, updated: t },
	});
	// 2. A session inside, its message's id climbing out of part/, and a parent id that climbs.
	put(join(storage, "session", "p1", "ses_inner.json"), {
		id: "ses_inner",
		parentID: "../../../x",
		directory: "/home/u/app",
		title: "inner",
		time: { created: t, updated: t },
	});
	put(join(storage, "message", "ses_inner", "msg_a.json"), { id: "../../../../leakpart", role: "user", time: { created: t } });
	put(join(storage, "message", "ses_inner", "msg_b.json"), { id: "msg_b", role: "user", time: { created: t + 1 } });
	put(join(storage, "part", "msg_b", "prt_b.json"), { id: "prt_b", type: "text", text: "inside wallaby" });
	// 3. A session whose message folder is a link out of the tree, and one whose part file is.
	put(join(storage, "session", "p1", "ses_link.json"), {
		id: "ses_link",
		directory: "/home/u/app",
		title: "link",
		time: { created: t, updated: t },
	});
	mkdirSync(join(storage, "message"), { recursive: true });
	symlinkSync(join(root, "linked"), join(storage, "message", "ses_link"));
	mkdirSync(join(storage, "part"), { recursive: true });
	symlinkSync(join(root, "linkedpart"), join(storage, "part", "msg_link"));
	put(join(storage, "message", "ses_inner", "msg_c.json"), { id: "msg_c", role: "user", time: { created: t + 2 } });
	mkdirSync(join(storage, "part", "msg_c"), { recursive: true });
	symlinkSync(join(root, "file.json"), join(storage, "part", "msg_c", "prt_c.json"));
	return dirname(storage);
}

describe("ids from files never form paths unchecked", () => {
	it("idAsName takes one plain path segment only", () => {
		for (const bad of ["../../etc", "..", ".", "a/b", "a\\b", "x\0y", "", "-rf", 42, null])
			expect(idAsName(bad), String(bad)).toBeUndefined();
		for (const good of ["ses_2f7a9c1e0b3d4a5f", "msg_o1", "01a120c2-3180-7535-afae-76d8368b3493", "agent-a1b2c3"])
			expect(idAsName(good)).toBe(good);
	});

	it("an OpenCode JSON tree with climbing ids and links out: nothing outside is read, what is inside is", async () => {
		const root = tempDir("hostile-ids");
		outside(root);
		const dataDir = hostileTree(root);
		const index = await LookbackIndex.open({ sql: await loadEngine(), storage: memoryStorage() });
		const report = await index.sync(fileSource([{ path: dataDir, layout: "opencode", agent: "opencode" }]));
		expect(report.added).toBeGreaterThanOrEqual(2);
		for (const word of ["quokkaclimbed", "quokkapart", "quokkalinked", "quokkafile"])
			expect(index.search({ query: word }).results, word).toEqual([]);
		expect(index.search({ query: "wallaby" }).results[0]).toMatchObject({ sessionId: "ses_inner", agent: "opencode" });
		// No sub-agent link made of a climbing parent id.
		const inner = index.browse({ limit: 20 }).find((s) => s.sessionId === "ses_inner");
		expect(inner?.spawnedBy).toBeUndefined();
		index.close();
	});
});
