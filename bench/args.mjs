// The bench scripts' flags: `--name value` pairs, and `--name` alone for a switch.

/** `--name value` pairs of an argument list, as an object. */
export function namedArgs(argv) {
	const args = {};
	argv.forEach((a, i) => {
		if (a.startsWith("--")) args[a.slice(2)] = argv[i + 1];
	});
	return args;
}
