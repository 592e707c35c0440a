export interface FakeOpenaiModel {
	/** Its base URL, ending in /v1. */
	url: string;
	requests: unknown[];
	close(): Promise<void>;
}
export function startFakeOpenaiModel(): Promise<FakeOpenaiModel>;
