export interface FakeOpencodeModel {
	url: string;
	requests: unknown[];
	/** Resolves once an answer is held (a prompt starting "WAIT"). */
	held(): Promise<void>;
	/** Sends the held answers. */
	release(): void;
	close(): Promise<void>;
}
export function startFakeOpencodeModel(): Promise<FakeOpencodeModel>;
export function fakeOpencodeConfig(url: string): string;
