/**
 * Sessions written by Pi's SessionManager for the recall tests and the golden set: a long test log with an
 * identifier deep in its middle, word forms, a rare word among common ones, a Chinese paraphrase, a first
 * prompt that is only a slash command.
 */

import { assistantMessage, newSession, toolResult, userMessage } from "./pi-sessions.js";

export const PLANTED = "ZephyrQuotaLedgerMismatch";

/** 50,000 characters of a test log, the identifier at character ~31,000 and a word across the stored head's end (1,200). */
export function longLog(): string {
	const lines: string[] = [];
	let n = 0;
	while (lines.join("\n").length < 1_150) lines.push(`ok ${++n} - renders the invoice table row ${n}`);
	let text = lines.join("\n");
	text = `${text.slice(0, 1_190)} halfwaysplitword `;
	while (text.length < 31_000) text += `\nok ${++n} - computes the tax bracket for region ${n}`;
	text += `\nnot ok ${++n} - ${PLANTED}: ledger total 1204.50 != 1204.05 in quota ledger reconciliation`;
	while (text.length < 50_000) text += `\nok ${++n} - formats the currency of locale ${n}`;
	return text;
}

export type GradedName = "deep" | "lock" | "locking" | "pgbouncer" | "refactor" | "chinesePool" | "chineseEtl" | "slash";

/** Write the graded sessions under `root`; their ids and files by name. */
export function writeGradedSessions(root: string): { ids: Record<GradedName, string>; paths: Record<GradedName, string> } {
	const ids = {} as Record<GradedName, string>;
	const paths = {} as Record<GradedName, string>;
	const session = (name: GradedName, cwd: string, messages: unknown[]) => {
		const sm = newSession(root, cwd);
		for (const m of messages) sm.appendMessage(m as Parameters<typeof sm.appendMessage>[0]);
		ids[name] = sm.getSessionId();
		paths[name] = sm.getSessionFile()!;
	};
	session("deep", "/home/dev/billing", [
		userMessage("run the billing test suite"),
		assistantMessage("running it", [{ name: "bash", arguments: { command: "npm test" } }]),
		toolResult("bash", longLog()),
		assistantMessage("one failure in the reconciliation"),
	]);
	session("lock", "/home/dev/db", [
		userMessage("add an advisory lock around the migration runner"),
		assistantMessage("added pg_advisory_lock before the migrations run"),
	]);
	session("locking", "/home/dev/db2", [
		userMessage("why is the scheduler locking up at night"),
		assistantMessage("the cron job and the backfill overlap"),
	]);
	session("pgbouncer", "/home/dev/infra", [
		userMessage("configure pgbouncer for the reporting replica"),
		assistantMessage("done: max_client_conn raised, PGBOUNCER_POOL_MODE=transaction in deploy/pgbouncer.ini"),
	]);
	const refactor: unknown[] = [userMessage("refactor the connection pool mode handling")];
	for (let i = 0; i < 8; i++)
		refactor.push(
			assistantMessage(`step ${i}: the pool mode switch moves into pool.ts; pool mode tests updated`),
			toolResult("read", `pool mode pool mode pool ${i}`),
		);
	session("refactor", "/home/dev/app", refactor);
	session("chinesePool", "/home/dev/api", [
		userMessage("生产环境连接池耗尽，请求全部超时"),
		assistantMessage("把连接池上限调大，并加上获取连接的超时"),
	]);
	session("chineseEtl", "/home/dev/etl", [userMessage("数据库迁移脚本要支持回滚"), assistantMessage("已添加回滚步骤")]);
	session("slash", "/home/dev/cli", [
		userMessage("/mode"),
		userMessage("fix the flaky retry test in the uploader"),
		assistantMessage("the retry test waits on a real timer; faked it"),
	]);
	return { ids, paths };
}
