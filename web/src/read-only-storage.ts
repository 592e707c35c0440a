/** An index file in the engine's filesystem (a ranged mount or a whole copy), opened in place and read-only. */

import { type FilesEngine, type InPlaceStorage, openAt } from "../../src/core/index.js";

export function readOnlyStorage(engine: FilesEngine, enginePath: string, description: string): InPlaceStorage {
	return {
		readOnly: true,
		describe: () => description,
		open: () => openAt(engine, enginePath),
		replaced: () => false,
		isBusy: () => false,
		setAside: async () => undefined,
	};
}
