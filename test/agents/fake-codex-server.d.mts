export interface FakeCodexModel {
	url: string;
	requests: unknown[];
	close(): Promise<void>;
}
export function startFakeCodexModel(): Promise<FakeCodexModel>;
export function fakeCodexConfig(url: string): string;
