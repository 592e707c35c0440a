/**
 * An import made once and kept for the process's life (a failed one is tried again at the next call). A host that
 * runs for days may need a module long after an upgrade replaced the hashed chunk it was built in
 * (scripts/build.mjs), and Node looks for the file again at each new `import()`.
 */
export function importOnce<T>(load: () => Promise<T>): () => Promise<T> {
	let loaded: Promise<T> | undefined;
	return () => {
		loaded ??= load().catch((error: unknown) => {
			loaded = undefined;
			throw error;
		});
		return loaded;
	};
}
