/**
 * Secrets out of text that leaves lookback (an export, an excerpt, a copied line, a tool reply when asked): API
 * keys, tokens, private keys, passwords in URLs and secret assignments, each replaced by a marker naming its
 * kind (`[REDACTED:github-token]`). secretlint's recommended rules find most (secretlint.ts); lookback's own
 * rules what they lack (own-rules.ts).
 */

import { DEFAULTS } from "../defaults.js";
import { ownFindings } from "./own-rules.js";
import { loadSecretlint, type RuleFinding, ruleHandlers, secretlintFindings } from "./secretlint.js";
import { tokenFindings } from "./token-rules.js";

/** A secret in a text: [start, end) and its kind, as the marker names it. */
export interface SecretFinding {
	start: number;
	end: number;
	kind: string;
}

/** Secrets replaced, by kind. */
export type RedactionTally = Record<string, number>;

export const redactionMarker = (kind: string) => `[REDACTED:${kind}]`;

/**
 * Load what redaction needs (secretlint's rules), once: every function here that finds secrets throws
 * `redaction-not-loaded` until it has resolved. Loaded on demand so that a start-up never pays for it.
 */
export function loadRedaction(): Promise<void> {
	return loadSecretlint();
}

/** secretlint's message ids as kinds: `AWSSecretAccessKey` → `aws-secret-access-key`, `GITHUB_TOKEN` → `github-token`. */
const NAMED: Record<string, string> = {
	MongoDBConnection: "mongodb-connection",
	MySQLConnection: "mysql-connection",
	PostgreSQLConnection: "postgresql-connection",
	PackageJSON_xOauthToken: "github-oauth-token",
	Npmrc_authToken: "npmrc-auth-token",
};
function kindOf(messageId: string): string {
	return (
		NAMED[messageId] ??
		messageId
			.replace(/([a-z0-9])([A-Z])/g, "$1-$2")
			.replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
			.replace(/_+/g, "-")
			.toLowerCase()
	);
}

/** Where a rule's secret is: the string its message quotes, found at or near the range it reported (some ranges are off). */
function located(text: string, f: RuleFinding): { start: number; end: number } {
	for (const quoted of [...f.quoted].sort((a, b) => b.length - a.length)) {
		const at = text.indexOf(quoted, Math.max(0, f.start - quoted.length));
		if (at >= 0 && at <= f.end) return { start: at, end: at + quoted.length };
	}
	return { start: f.start, end: f.end };
}

/** In `user:password@` of a URL found whole, the password alone: the host and the user stay readable. */
function passwordOnly(text: string, span: { start: number; end: number }): { start: number; end: number } {
	const m = /^(?:[a-z][a-z0-9+.-]*:\/\/)?[^\s:/?#@]*:([^\s/?#@]+)@/i.exec(text.slice(span.start, span.end));
	if (!m) return span;
	const start = span.start + m[0].length - 1 - m[1].length;
	return { start, end: start + m[1].length };
}

/** Out to the whole token: a rule that matched part of a longer key must not leave the rest readable. */
function wholeToken(text: string, span: { start: number; end: number }): { start: number; end: number } {
	let { start, end } = span;
	if (/[A-Za-z0-9]/.test(text[start] ?? "")) while (start > 0 && /[A-Za-z0-9]/.test(text[start - 1])) start--;
	if (/[A-Za-z0-9+/=_-]/.test(text[end - 1] ?? "")) while (end < text.length && /[A-Za-z0-9+/=_-]/.test(text[end])) end++;
	return { start, end };
}

/** Every secret in `text`, in order, overlapping finds merged (the first one's kind named). */
export function findSecrets(text: string): SecretFinding[] {
	ruleHandlers(); // loaded, or a misuse says so whatever the text
	if (text.length < 8) return [];
	const found: SecretFinding[] = [
		...secretlintFindings(text).map((f) => ({ ...wholeToken(text, passwordOnly(text, located(text, f))), kind: kindOf(f.messageId) })),
		...[...ownFindings(text), ...tokenFindings(text)].map((f) => ({ ...wholeToken(text, f), kind: f.kind })),
	].filter((f) => f.end > f.start);
	found.sort((a, b) => a.start - b.start || b.end - a.end);
	const merged: SecretFinding[] = [];
	for (const f of found) {
		const last = merged[merged.length - 1];
		if (last && f.start < last.end) last.end = Math.max(last.end, f.end);
		else merged.push({ ...f });
	}
	return merged;
}

function replaced(text: string, found: readonly SecretFinding[], tally?: RedactionTally): string {
	let out = "";
	let at = 0;
	for (const f of found) {
		out += text.slice(at, f.start) + redactionMarker(f.kind);
		at = f.end;
		if (tally) tally[f.kind] = (tally[f.kind] ?? 0) + 1;
	}
	return out + text.slice(at);
}

const MARKS = new RegExp(`[${DEFAULTS.markOpen}${DEFAULTS.markClose}]`, "g");

/**
 * `text` with every secret replaced by its marker, counted into `tally`. A snippet's match marks (« ») could
 * split a key so that no rule sees it: a snippet holding a secret loses its marks.
 */
export function redactText(text: string, tally?: RedactionTally): string {
	const source = text.includes(DEFAULTS.markOpen) ? text.replace(MARKS, "") : text;
	const found = findSecrets(source);
	return found.length > 0 ? replaced(source, found, tally) : text;
}

/** Fields a reply hands back to the next call (ids, paths, branch tips): they are references, never redacted. */
const REFERENCES = new Set([
	"sessionId",
	"entryId",
	"parentId",
	"path",
	"sessionPath",
	"branchTip",
	"tip",
	"after",
	"parentSessionId",
	"spawnedBy",
	"spawnedBySessionId",
	"spawnedByEntryId",
	"fromEntryId",
	"toEntryId",
	"index",
]);

/** A copy of a reply (any JSON value) with every string redacted, except the references a next call passes back. */
export function redactValue<T>(value: T, tally?: RedactionTally): T {
	if (typeof value === "string") return redactText(value, tally) as T;
	if (Array.isArray(value)) return value.map((v) => redactValue(v, tally)) as T;
	if (value && typeof value === "object") {
		const out: Record<string, unknown> = {};
		for (const [key, v] of Object.entries(value)) out[key] = REFERENCES.has(key) ? v : redactValue(v, tally);
		return out as T;
	}
	return value;
}

/**
 * Whether the agents' tools (session_search, the MCP server) redact their replies when a call does not say: yes —
 * what they answer goes to whichever model provider the calling agent uses — unless `LOOKBACK_REDACT=0` (or false,
 * no, off) in their environment, a person's choice for every call. A call's own `redact: false` turns it off for it.
 */
export function redactsByDefault(env: Record<string, string | undefined>): boolean {
	return !/^(0|false|no|off)$/i.test(env.LOOKBACK_REDACT?.trim() ?? "");
}

/** A reply redacted, saying so: `redactions` counts what was replaced, by kind. */
export function redactedReply<T extends object>(reply: T): T & { redactions: RedactionTally } {
	const redactions: RedactionTally = {};
	return { ...redactValue(reply, redactions), redactions };
}
