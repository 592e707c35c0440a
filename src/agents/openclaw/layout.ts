/** OpenClaw's folders: `<state>/agents/<agent>/agent/openclaw-agent.sqlite` (2026.9), `<state>/agents/<agent>/sessions/*.jsonl` before. */

/** The database each OpenClaw agent keeps its transcripts in. */
export const OPENCLAW_AGENT_DB = "openclaw-agent.sqlite";

/** A file the page takes for OpenClaw: an agent's database (which it cannot read, and names). */
export function isOpenclawDbName(name: string): boolean {
	return name === OPENCLAW_AGENT_DB;
}
