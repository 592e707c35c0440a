/** An index file held whole in memory, opened read-only from the engine's filesystem (a downloaded or picked copy). */

import { type FilesEngine, LookbackIndex } from "../../src/core/index.js";
import { readOnlyStorage } from "./read-only-storage.js";

let opened = 0;

type WholeFs = { mkdir(p: string): void; writeFile(p: string, b: Uint8Array): void; unlink(p: string): void; rmdir(p: string): void };

/** Open `bytes` as an index; `release` closes it and frees the copy. Throws when they are not a usable lookback index. */
export async function openWholeCopy(
	engine: FilesEngine,
	bytes: Uint8Array,
	description: string,
): Promise<{ index: LookbackIndex; release(): void }> {
	const dir = `/whole${++opened}`;
	const fs = engine.FS as unknown as WholeFs;
	const release = () => {
		fs.unlink(`${dir}/index.db`);
		fs.rmdir(dir);
	};
	fs.mkdir(dir);
	fs.writeFile(`${dir}/index.db`, bytes);
	try {
		const index = await LookbackIndex.open({ sql: engine, storage: readOnlyStorage(engine, `${dir}/index.db`, description) });
		const releaseCopy = () => {
			index.close();
			release();
		};
		return { index, release: releaseCopy };
	} catch (error) {
		release();
		throw error;
	}
}
