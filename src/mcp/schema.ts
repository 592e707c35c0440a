/**
 * The tools' input schemas as plain JSON Schema (what `tools/list` sends, flat objects of strings, integers,
 * booleans and lists of strings; enums as `{type: "string", enum}` because Google's API, behind Gemini CLI, rejects `anyOf`),
 * and the check of a call's arguments against them with a one-line reason for the model.
 */

import { LookbackError } from "../core/errors.js";

export type PropertySchema =
	| { type: "string"; description: string; enum?: readonly string[]; minLength?: number }
	| { type: "integer"; description: string; minimum: number; maximum: number }
	| { type: "boolean"; description: string }
	| { type: "array"; description: string; items: { type: "string" }; maxItems: number };

export interface ObjectSchema {
	type: "object";
	properties: Record<string, PropertySchema>;
	required?: string[];
	additionalProperties: false;
}

export type Arguments = Record<string, string | number | boolean | string[]>;

function bad(message: string): never {
	throw new LookbackError("bad-argument", message);
}

function shown(value: unknown): string {
	const text = JSON.stringify(value) ?? String(value);
	return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function checkValue(name: string, schema: PropertySchema, value: unknown): void {
	switch (schema.type) {
		case "string":
			if (typeof value !== "string") bad(`${name} must be a string, not ${shown(value)}`);
			if (schema.enum && !schema.enum.includes(value)) bad(`${name} must be one of ${schema.enum.join(", ")}, not ${shown(value)}`);
			if (schema.minLength !== undefined && value.trim().length < schema.minLength) bad(`${name} is empty`);
			return;
		case "integer":
			if (typeof value !== "number" || !Number.isInteger(value) || value < schema.minimum || value > schema.maximum)
				bad(`${name} must be an integer from ${schema.minimum} to ${schema.maximum}, not ${shown(value)}`);
			return;
		case "boolean":
			if (typeof value !== "boolean") bad(`${name} must be true or false, not ${shown(value)}`);
			return;
		case "array":
			if (!Array.isArray(value) || value.some((item) => typeof item !== "string"))
				bad(`${name} must be a list of strings, not ${shown(value)}`);
			if (value.length > schema.maxItems) bad(`${name} holds at most ${schema.maxItems} items, not ${value.length}`);
			return;
	}
}

/** The arguments if they fit the schema. @throws LookbackError("bad-argument") naming the first that does not. */
export function checkArguments(schema: ObjectSchema, args: unknown): Arguments {
	const given = args ?? {};
	if (typeof given !== "object" || Array.isArray(given)) bad(`arguments must be an object, not ${shown(args)}`);
	const entries = Object.entries(given as Record<string, unknown>);
	for (const [name, value] of entries) {
		const property = schema.properties[name];
		if (!property) bad(`unknown argument "${name}" (arguments: ${Object.keys(schema.properties).join(", ") || "none"})`);
		// A client may send null for an optional argument it leaves out.
		if (value === null && !schema.required?.includes(name)) continue;
		checkValue(name, property, value);
	}
	for (const name of schema.required ?? []) if (!(name in given) || given[name as keyof typeof given] == null) bad(`${name} is required`);
	return Object.fromEntries(entries.filter(([, v]) => v !== null)) as Arguments;
}
