export function startFakeAnthropic(options?: {
	reply?: (lastUserText: string) => string | undefined;
	usage?: (n: number) => Record<string, unknown>;
}): Promise<{
	url: string;
	requests: unknown[];
	close: () => Promise<void>;
}>;
