/**
 * lookback's config file, `config.json` in its own folder (`lookbackFolder`, beside the default index): defaults for
 * the command line's options, which an option given on the command line overrides. Read when a command needs it;
 * a file that is not JSON of this shape is a clear error, never ignored.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LookbackError } from "../core/errors.js";
import type { Env } from "./home.js";
import { lookbackFolder } from "./index-path.js";

/** Defaults of `lookback usage` (and the status line's time zone), by the names of its options. */
interface UsageDefaults {
	by?: string;
	timezone?: string;
	utc?: boolean;
	last?: number;
	"token-limit"?: number | "max";
}

export interface LookbackConfig {
	usage?: UsageDefaults;
}

const USAGE_KEYS: Record<keyof UsageDefaults, (v: unknown) => boolean> = {
	by: (v) => typeof v === "string",
	timezone: (v) => typeof v === "string",
	utc: (v) => typeof v === "boolean",
	last: (v) => Number.isInteger(v) && (v as number) > 0,
	"token-limit": (v) => v === "max" || (Number.isInteger(v) && (v as number) > 0),
};

function configPath(options: { agentDir?: string; env?: Env } = {}): string {
	return join(lookbackFolder(options), "config.json");
}

/** The config file's settings, or none when there is no file. @throws LookbackError("bad-argument") for a bad one. */
export function readConfig(options: { agentDir?: string; env?: Env } = {}): LookbackConfig {
	const path = configPath(options);
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch {
		return {};
	}
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch (error) {
		throw new LookbackError("bad-argument", `the config file ${path} is not JSON: ${(error as Error).message}`);
	}
	const usage = (parsed as { usage?: unknown } | null)?.usage;
	if (usage === undefined) return {};
	if (usage === null || typeof usage !== "object" || Array.isArray(usage))
		throw new LookbackError("bad-argument", `the config file ${path}: "usage" must be an object`);
	for (const [key, value] of Object.entries(usage)) {
		const valid = USAGE_KEYS[key as keyof UsageDefaults];
		if (!valid)
			throw new LookbackError(
				"bad-argument",
				`the config file ${path}: "usage" has no setting "${key}" (${Object.keys(USAGE_KEYS).join(", ")})`,
			);
		if (!valid(value))
			throw new LookbackError("bad-argument", `the config file ${path}: "usage.${key}" cannot be ${JSON.stringify(value)}`);
	}
	return { usage: usage as UsageDefaults };
}
