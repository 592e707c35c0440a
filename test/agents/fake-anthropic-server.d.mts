export function startFakeAnthropic(options?: { reply?: (lastUserText: string) => string | undefined }): Promise<{
	url: string;
	requests: unknown[];
	close: () => Promise<void>;
}>;
