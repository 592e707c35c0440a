/**
 * What tokens cost where a session recorded tokens but no cost (Claude Code, Codex, Gemini CLI): the prices of Pi's
 * own model registry (`model-prices.generated.ts`, made from it by scripts/make-prices.mjs; never edited here), looked up by
 * provider and model id as the agents write them. A cost made here is an estimate at API list prices, and says so.
 */

import type { TokenCounts } from "../parse/entry-usage.js";
import { MODEL_PRICES, PRICES_FROM } from "./model-prices.generated.js";

/** USD per million tokens: input, output, cache read, cache write; tiers apply above a prompt size. */
type Rates = [number, number, number, number];
type Tier = [above: number, ...rates: Rates];
type Entry = Rates | [...Rates, Tier[]];

// Read through a cast, not a copy: a bundle that only names PRICE_SOURCE (the viewer's page) leaves the table out.
const MODELS = MODEL_PRICES as Record<string, Record<string, Entry>>;

/** The registry release the prices come from (stored in the index, so estimates are made again when it changes). */
export const PRICE_SOURCE: string = PRICES_FROM;

/** The price list named for a person: the agent's release it comes from (`Pi 1.6.0's model list`), not an npm package. */
export function pricesLabel(source: string): string {
	const release = source.match(/pi-ai (\S+)$/)?.[1];
	return release ? `Pi ${release}'s model list` : source;
}

/** Providers tried for a model whose own provider has no price for it, by the family its id names. */
const FAMILIES: [RegExp, string][] = [
	[/^claude/, "anthropic"],
	[/^(gpt|o\d|codex|chatgpt)/, "openai"],
	[/^(gemini|gemma)/, "google"],
	[/^grok/, "xai"],
	[/^(mistral|codestral|devstral|magistral)/, "mistral"],
	[/^deepseek/, "deepseek"],
	[/^(kimi|moonshot)/, "moonshotai"],
	[/^glm/, "zai"],
	[/^qwen/, "qwen-token-plan"],
];

/** The forms an id may be written in: as given, without a provider prefix, a region, a date or a version suffix. */
function idForms(model: string): string[] {
	const forms: string[] = [];
	const add = (id: string) => {
		if (id && !forms.includes(id)) forms.push(id);
	};
	let id = model.trim().toLowerCase();
	add(id);
	id = id.replace(/\[[^\]]*\]$/, ""); // claude-sonnet-4-5[1m]
	add(id);
	id = id.slice(id.lastIndexOf("/") + 1); // openai/gpt-5, models/gemini-2.5-pro
	add(id);
	id = id.replace(/^(us|eu|apac|global)\./, "").replace(/^anthropic\./, ""); // Bedrock: us.anthropic.claude-…-v1:0
	id = id.replace(/-v\d+(:\d+)?$/, "");
	add(id);
	id = id.replace(/[-@]\d{8}$/, ""); // claude-sonnet-4-5-20250929, claude-sonnet-4@20250514
	add(id);
	add(id.replace(/-latest$/, ""));
	return forms;
}

function providersFor(provider: string | undefined, id: string): string[] {
	const out: string[] = [];
	if (provider && MODELS[provider]) out.push(provider);
	for (const [family, p] of FAMILIES) if (family.test(id) && !out.includes(p)) out.push(p);
	return out;
}

const found = new Map<string, Entry | null>();

function entryOf(provider: string | undefined, model: string): Entry | undefined {
	const key = `${provider ?? ""}\u0000${model}`;
	const cached = found.get(key);
	if (cached !== undefined) return cached ?? undefined;
	let entry: Entry | undefined;
	const forms = idForms(model);
	search: for (const id of forms)
		for (const p of providersFor(provider, forms[forms.length - 1])) {
			entry = MODELS[p]?.[id];
			if (entry) break search;
		}
	// Last, any provider that lists the id as written (an aggregator's own naming).
	if (!entry) for (const p of Object.keys(MODELS)) if ((entry = MODELS[p][forms[0]])) break;
	found.set(key, entry ?? null);
	return entry;
}

/**
 * Anthropic's long-context rule, for the models it sells a 1M-token context for and that the table gives no tier of
 * their own: once a request's input (its prompt, cache reads and writes) is above 200k tokens, the whole request is
 * billed at the long-context rates, input and cache at twice the base, output at 1.5 times.
 */
const LONG_CONTEXT = { above: 200_000, models: /^claude-(sonnet-4(-5|-6)?|opus-4-6)$/, input: 2, output: 1.5 };

/**
 * Service tiers and speeds billed at a multiple of the standard rates, by provider: OpenAI's `priority` (Codex's
 * `service_tier`) at 2x, `flex` and the Batch API at half; Anthropic's batch at half and Claude Code's fast mode at 6x.
 */
const TIER_FACTORS: Record<string, Record<string, number>> = {
	openai: { priority: 2, flex: 0.5, batch: 0.5 },
	anthropic: { batch: 0.5, fast: 6 },
};

/** Rates (USD per million) of a model for one request: the table's, its tier above the prompt's size, or the long-context rule's. */
function ratesFor(entry: Entry, id: string, provider: string | undefined, prompt: number): Rates {
	let rates: Rates = [entry[0], entry[1], entry[2], entry[3]];
	let above = -1;
	const tiers = (entry[4] as Tier[] | undefined) ?? [];
	for (const [threshold, ...tier] of tiers)
		if (prompt > threshold && threshold > above) {
			rates = tier as Rates;
			above = threshold;
		}
	if (tiers.length === 0 && prompt > LONG_CONTEXT.above && providerOf(provider, id) === "anthropic" && LONG_CONTEXT.models.test(id)) {
		const [i, o, r, w] = rates;
		rates = [i * LONG_CONTEXT.input, o * LONG_CONTEXT.output, r * LONG_CONTEXT.input, w * LONG_CONTEXT.input];
	}
	return rates;
}

/** The provider whose bill a model's tokens are on: the one recorded, else the family its id names. */
function providerOf(provider: string | undefined, id: string): string | undefined {
	if (provider === "anthropic" || provider === "openai") return provider;
	return FAMILIES.find(([family]) => family.test(id))?.[1] ?? provider;
}

/**
 * The estimated cost in USD of one message's tokens, or undefined when the table has no price for the model. As the
 * provider bills: a tier applies to the whole request when its prompt (input and cache) is above the tier's size, as
 * Pi's own `calculateCost` does, and Anthropic's long-context rule where the table has no tier; cache writes kept
 * for an hour at twice the input rate (the table's cache-write rate is the 5-minute one, 1.25x); a recorded service
 * tier or speed at its multiple (`TIER_FACTORS`).
 */
export function estimateCost(provider: string | undefined, model: string | undefined, tokens: TokenCounts): number | undefined {
	const entry = model ? entryOf(provider, model) : undefined;
	if (!entry || !model) return undefined;
	const forms = idForms(model);
	const id = forms[forms.length - 1];
	const prompt = tokens.input + tokens.cacheRead + tokens.cacheWrite;
	const rates = ratesFor(entry, id, provider, prompt);
	const hour = Math.min(tokens.cacheWrite1h ?? 0, tokens.cacheWrite);
	const writes = rates[3] * (tokens.cacheWrite - hour) + 2 * rates[0] * hour;
	const factor = (tokens.tier && TIER_FACTORS[providerOf(provider, id) ?? ""]?.[tokens.tier]) || 1;
	return (factor * (rates[0] * tokens.input + rates[1] * tokens.output + rates[2] * tokens.cacheRead + writes)) / 1e6;
}
