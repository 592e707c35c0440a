/**
 * Query variants: the agent's own paraphrases and translations searched with the query and fused by reciprocal
 * rank; each hit says which phrasing found it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LookbackIndex } from "../../src/core/index.js";
import { phrasingsOf } from "../../src/core/search/variants.js";
import { indexOf } from "../helpers.js";
import { assistantMessage, newSession, userMessage } from "../pi-sessions.js";

let index: LookbackIndex;
let root: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
	root = mkdtempSync(join(tmpdir(), "variants-"));
	const session = (name: string, cwd: string, user: string, answer: string) => {
		const sm = newSession(root, cwd);
		sm.appendMessage(userMessage(user));
		sm.appendMessage(assistantMessage(answer));
		ids[name] = sm.getSessionId();
	};
	// The decision was taken in Spanish; the person now asks in English.
	session(
		"spanish",
		"/home/dev/pagos",
		"el servicio de pagos se queda en interbloqueo al reintentar",
		"usamos un bloqueo consultivo por pedido",
	);
	session("english", "/home/dev/shop", "the checkout retries time out on the stream buffer", "raised the buffer and capped the retries");
	session("other", "/home/dev/blog", "write a post about payment providers", "drafted the post");
	({ index } = await indexOf(root));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("query variants", () => {
	it("finds what only a translation names, and says which phrasing found each session", () => {
		const alone = index.search({ query: "payment service deadlock on retry" });
		expect(alone.results.map((h) => h.sessionId)).not.toContain(ids.spanish);
		const r = index.search({ query: "payment service deadlock on retry", variants: ["servicio de pagos interbloqueo"] });
		expect(r.variants).toEqual(["servicio de pagos interbloqueo"]);
		const spanish = r.results.find((h) => h.sessionId === ids.spanish);
		expect(spanish?.foundBy).toEqual(["servicio de pagos interbloqueo"]);
		expect(r.results[0].sessionId).toBe(ids.spanish);
	});

	it("ranks first a session that several phrasings find, and keeps the query's own hits", () => {
		const r = index.search({
			query: "why did the checkout retry keep timing out",
			variants: ["retries time out stream buffer", "checkout timeout"],
		});
		expect(r.results[0]).toMatchObject({ sessionId: ids.english });
		expect(r.results[0].foundBy?.length).toBeGreaterThanOrEqual(2);
	});

	it("takes at most three distinct, non-empty variants", () => {
		expect(phrasingsOf({ query: "a", variants: ["b", "a", " ", "b", "c", "d", "e"] })).toEqual(["a", "b", "c", "d"]);
		expect(index.search({ query: "deadlock", variants: ["", "  "] }).variants).toBeUndefined();
	});
});
