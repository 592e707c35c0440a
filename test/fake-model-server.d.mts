export interface FakeModel {
	url: string;
	// biome-ignore: request bodies are whatever pi sends
	requests: { messages: { role: string; content: unknown }[]; tools: { function: { name: string } }[] }[];
	/** Called with each request's body before it is answered. */
	onRequest?: (body: unknown) => void;
	close(): Promise<void>;
}
export function startFakeModel(): Promise<FakeModel>;
export function fakeModelsJson(url: string): string;
