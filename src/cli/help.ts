/** What `lookback --help` prints: the commands, the query language, the filters and the options. */

import { AGENT_FACTS, AGENT_KINDS, agentLabels } from "../agents/registry.js";
import { DEFAULTS } from "../core/defaults.js";

export const HELP = `lookback — search every past session of ${agentLabels()}

usage:
  lookback index                       index new and changed sessions (progress on a terminal)
  lookback search QUERY [filters]      sessions ranked by their best matching message
  lookback search QUERY --session ID   every match inside one session, in order (--offset N for the next page)
  lookback read SESSION [--around ENTRY] [--window N] [--branch-tip ENTRY] [--full]
                                       (--full: long messages whole, from the file or the archive's copy)
  lookback browse [--limit N] [--project P] [--since T] [--until T]
  lookback restore SESSION             write a gone session's file back from the archive, where its agent resumes it
  lookback forget SESSION|--project P|--before DATE [--yes]
                                       remove sessions from the index and the archive for good (a dry run without --yes)
  lookback usage [--by G] [filters]    tokens, cost, sessions, messages and tool calls, by day, week, month,
                                       project, model, agent or session (--utc: UTC days)
  lookback export SESSION [--format md|html|json] [--branch active|all] [--out FILE] [--no-redact]
                                       the session as a readable conversation, secrets redacted (a gone one from the archive)
  lookback stats                       what the index and the archive hold and cost
  lookback serve [--port N]            the browser viewer on 127.0.0.1 (read-only); --remote URL: a team's
  lookback publish PLACE --as NAME     this machine's history, redacted, as shard NAME of s3://bucket/prefix or file:///dir
  lookback mcp                         an MCP server on stdio for Claude Code, Codex, Gemini CLI, OpenCode, Cursor

query:   keywords, or a question in your own words (the words around it are left out).
         Words are ANDed; OR, AND, NOT in capitals, "a phrase", prefix*, (groups around an
         operator), -word in a short keyword query; brackets, flags (tail -F), paths are words.
         An identifier also finds words containing it (tateSto finds stateStore);
         Chinese/Japanese of any length works; "quoted" words match exactly.
filters: --since T --until T   a date (2026-07-30), ISO datetime, or age (30m, 6h, 3d, 2w)
         --project P           substring of the session's cwd or name
         --role R              user, assistant, tool, summary, meta (repeatable)
         --limit N             sessions to show (default ${DEFAULTS.searchLimit})
         --variant Q           another phrasing or translation searched with QUERY, fused (up to 3)
         --agent A             only sessions of one agent: ${AGENT_KINDS.join(", ")}
         --gone only|exclude   only the sessions whose file is gone (kept in the archive), or none of them
SESSION: a session id, a unique id prefix, or a session file path inside the session folders.

options: --index FILE          index file (default <agentDir>/lookback/index.db)
         --agent-dir DIR       Pi's agent dir (default $PI_CODING_AGENT_DIR or ~/.pi/agent)
${AGENT_FACTS.flatMap((a) => (a.dirOption ? [`         ${`--${a.dirOption.name} DIR`.padEnd(22)}${a.dirOption.help}\n`] : [])).join("")}         --sessions-dir DIR    another session folder to index (repeatable)
         --only-sessions-dir   index only the --sessions-dir folders
         --no-agent A          leave an agent out and forget its sessions (repeatable; or LOOKBACK_SKIP_AGENTS=a,b)
         --no-sync             search the index as it is, without looking for new sessions
         --no-archive          keep no copies of session files (or LOOKBACK_ARCHIVE=off; LOOKBACK_ARCHIVE=DIR moves
                               the archive from <index dir>/archive); a session whose file goes is then forgotten
         --engine E            auto (default), wasm, or builtin (node:sqlite / bun:sqlite); or LOOKBACK_ENGINE
         --remote URL          search, read, browse, usage: every shard of a team (s3://, https://, file://; or LOOKBACK_REMOTE)
         --json                machine-readable output (shapes in README)
`;
