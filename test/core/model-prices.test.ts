/** The price table lookback carries is the one Pi's pinned registry gives (scripts/make-prices.mjs; `npm run prices`). */

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { priceTable } from "../../scripts/make-prices.mjs";
import { MODEL_PRICES, PRICES_FROM } from "../../src/core/usage/model-prices.generated.js";

const ROOT = join(import.meta.dirname, "..", "..");
const REGISTRY = join(ROOT, ".tools", "pi-current", "node_modules", "@earendil-works", "pi-ai");

describe("the model price table", () => {
	it("is the pinned Pi's registry, cut to prices (run `npm run prices` after moving Pi on)", async () => {
		expect(existsSync(REGISTRY), "Pi's current release in .tools: node scripts/ensure-pi-current.mjs").toBe(true);
		const table = await priceTable(REGISTRY);
		expect(PRICES_FROM).toBe(table.source);
		expect(MODEL_PRICES).toEqual(table.models);
		// The models the fixtures' agents wrote, as the registry prices them.
		expect(MODEL_PRICES.anthropic["claude-sonnet-4-5"]).toEqual([3, 15, 0.3, 3.75]);
		expect(MODEL_PRICES.google["gemini-3.1-pro-preview"]?.[4]).toEqual([[200000, 4, 18, 0.4, 0]]);
	});

	it("is made again by `npm run prices`, the command its header, README and the failure above name", () => {
		const scripts = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts as Record<string, string>;
		expect(scripts.prices).toBe("node scripts/make-prices.mjs");
	});
});
