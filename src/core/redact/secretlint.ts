/**
 * secretlint's recommended rules (`@secretlint/secretlint-rule-preset-recommend`, MIT), run on a string. The rules
 * are the maintained part: their patterns, their allow-lists of documented example keys, their checks that a
 * match is a real key (a private key's base64 body, a token's checksum). Their engine is not needed: each rule is
 * `create(context, options).file(source)` and reports ranges synchronously, so this file drives them itself and
 * stays synchronous, with no file, no config and no network. The preset is loaded on first use
 * (`loadSecretlint`), not at start-up: its 200 KB cost every CLI command and host 30–100 ms.
 */

import type { SecretLintRuleContext, SecretLintRuleCreator, SecretLintRuleReportDescriptor, SecretLintSourceCode } from "@secretlint/types";
import { LookbackError } from "../errors.js";

/** A secret a rule reported: where it is, the kind its message names, and the string it names as the secret. */
export interface RuleFinding {
	start: number;
	end: number;
	/** The rule's message id (`AWSSecretAccessKey`, `GITHUB_TOKEN`, …). */
	messageId: string;
	/** The secret as the rule's message quotes it (`KEY`, `TOKEN`, `URI`, …), when it does. */
	quoted: string[];
}

/**
 * Rules left out: comment directives (`secretlint-disable`) would let a transcript switch redaction off for what
 * follows it. Options: the AWS rule scans for access key ids only when asked.
 */
const SKIPPED = new Set(["@secretlint/secretlint-rule-filter-comments"]);
const OPTIONS: Record<string, object> = { "@secretlint/secretlint-rule-aws": { enableIDScanRule: true } };

let sink: RuleFinding[] = [];

function context(): SecretLintRuleContext {
	return {
		sharedOptions: {},
		// The message is kept as its id and props: the props name the secret, which locates it when a rule's range is off.
		createTranslator: () => (messageId, props) => ({ messageId: String(messageId), message: String(messageId), data: props }),
		report(descriptor: SecretLintRuleReportDescriptor) {
			const data = (descriptor.message.data ?? {}) as Record<string, unknown>;
			sink.push({
				start: descriptor.range[0],
				end: descriptor.range[1],
				messageId: descriptor.message.messageId,
				quoted: Object.values(data).filter((v): v is string => typeof v === "string" && v.length >= 4),
			});
		},
		ignore() {},
	};
}

/** Each rule's handler, made once the preset is loaded and kept (the rules keep no state between files). */
let handlers: ReturnType<SecretLintRuleCreator["create"]>[] | undefined;
let loading: Promise<void> | undefined;

/**
 * The preset: from node_modules where it is installed (a clone; it is a devDependency), else the copy the build
 * bundled into dist/ (an installed lookback, which installs no package whose engines want Node 22, as the preset's
 * 12.1 and later do: scripts/build-host.mjs). Every bundle (dist/, the page) inlines the first; only the sources
 * loaded outside them (Pi's overlay in an installed package, through Pi's jiti) reach the second.
 */
function importPreset(): Promise<{ rules: unknown[] }> {
	return import("@secretlint/secretlint-rule-preset-recommend").catch(() => {
		const bundled = new URL(["..", "..", "..", "dist", "secretlint-preset.js"].join("/"), import.meta.url).href;
		return import(/* @vite-ignore */ bundled) as Promise<{ rules: unknown[] }>;
	});
}

/** Load the rules (once; every later call resolves at once). */
export function loadSecretlint(): Promise<void> {
	loading ??= importPreset().then(({ rules }) => {
		handlers = (rules as SecretLintRuleCreator[])
			.filter((rule) => !SKIPPED.has(rule.meta.id) && rule.meta.supportedContentTypes.some((t) => t === "text" || t === "all"))
			.map((rule) => rule.create(context(), OPTIONS[rule.meta.id] ?? {}));
	});
	return loading;
}

/** The rules' handlers. @throws LookbackError redaction-not-loaded before `loadSecretlint` resolved. */
export function ruleHandlers() {
	if (!handlers) throw new LookbackError("redaction-not-loaded", "redaction's rules are not loaded: await loadRedaction() first");
	return handlers;
}

function sourceOf(content: string): SecretLintSourceCode {
	const unsupported = () => {
		throw new Error("lookback: secretlint positions are not supported here");
	};
	// No file path: the rules that read a file by its name (p12 keys, .npmrc) never run, nor touch Node's fs.
	return {
		hasBOM: false,
		content,
		filePath: undefined,
		physicalFilePath: undefined,
		contentType: "text",
		ext: "",
		getFilePath: () => undefined,
		getPhysicalFilePath: () => undefined,
		locationToRange: unsupported,
		rangeToLocation: unsupported,
		positionToIndex: unsupported,
		indexToPosition: unsupported,
	};
}

/** What secretlint's recommended rules report in `text`. */
export function secretlintFindings(text: string): RuleFinding[] {
	const found: RuleFinding[] = [];
	const all = ruleHandlers();
	sink = found;
	const source = sourceOf(text);
	try {
		for (const handler of all) {
			// A rule that answers asynchronously reads files (none does for a text without a path): its promise is let go.
			const done = handler.file?.(source);
			if (done) done.catch(() => undefined);
		}
	} finally {
		sink = [];
	}
	return found;
}
