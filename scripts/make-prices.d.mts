/** Types of make-prices.mjs for the test that checks the committed table against the registry. */
export function priceTable(dir?: string): Promise<{ source: string; models: Record<string, Record<string, unknown[]>> }>;
