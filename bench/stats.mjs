// p50 and p95 of a list of times (nearest rank), as every benchmark table reports them.
function percentile(sorted, p) {
	return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p + 0.5))];
}

export function stats(times) {
	const s = [...times].sort((a, b) => a - b);
	return { p50: percentile(s, 0.5), p95: percentile(s, 0.95), n: s.length };
}
