// A separate process that adds sessions to the shared index and syncs, for the concurrency and crash tests.
// node index-writer.mjs INDEX SESSIONS NAME ROUNDS [SESSIONS_PER_ROUND]   (ROUNDS 0: until killed)
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileSource, fileStorage, LookbackIndex, loadEngine } from "../../dist/index.js";

const [indexPath, sessions, name, roundsText, perRoundText = "1"] = process.argv.slice(2);
const rounds = Number(roundsText);
const perRound = Number(perRoundText);
const dir = join(sessions, `--home-dev-${name}--`);
mkdirSync(dir, { recursive: true });
const sql = await loadEngine();
const filler = "lorem ipsum dolor sit amet ".repeat(400);
for (let r = 0; rounds === 0 || r < rounds; r++) {
	for (let s = 0; s < perRound; s++) {
		const id = `${name}-${r}-${s}`;
		const lines = [
			{ type: "session", version: 3, id, timestamp: new Date().toISOString(), cwd: `/home/dev/${name}` },
			{
				type: "message",
				id: "a1",
				parentId: null,
				timestamp: new Date().toISOString(),
				message: { role: "user", content: [{ type: "text", text: `marker${name}x${r} w${s}w ${filler}` }], timestamp: 0 },
			},
		];
		writeFileSync(join(dir, `2026-11-29T00-00-00-000Z_${id}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
	}
	const index = await LookbackIndex.open({ sql, storage: fileStorage(indexPath) });
	await index.sync(fileSource([{ path: sessions, layout: "nested" }]), { batchMs: perRound > 1 ? 60_000 : undefined });
	index.close();
	process.stdout.write(`${r}\n`);
}
