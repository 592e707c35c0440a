/** The real CLIs' sessions the viewer's tests find, served (agents-reader.test.ts) and picked in the page (no-server.test.ts). */

/**
 * A session of each of Claude Code, Codex and Gemini CLI the real CLIs wrote (test/fixtures), a word only it holds,
 * and what the viewer's reader shows of it: its resume command, a prompt, a tool's output, the sub-agent it spawned.
 */
export const AGENT_SESSIONS = [
	{
		agent: "claude",
		word: "narwhal",
		session: "803bb4c1-76e6-4594-9fb6-45953cf58af7",
		resume: "cd /home/user/zebra-app && claude -r 803bb4c1-76e6-4594-9fb6-45953cf58af7",
		user: "after compaction ask about the narwhal",
		tool: { name: "Read", output: "the zebra migration uses pgbouncer transaction mode" },
		subagent: { id: "agent-a1fa55d4f6c0a40b7", says: "find the walrus config" },
	},
	{
		agent: "codex",
		word: "quartz",
		session: "01a2315e-b204-7071-b339-8dc13fe83021",
		resume: "codex resume 01a2315e-b204-7071-b339-8dc13fe83021",
		user: "SHELL echo zebra-quartz-42",
		tool: { name: "exec_command", output: "Process exited with code 0" },
		subagent: { id: "01a2315e-d742-77c1-8ebb-d2698450eb35", says: "Child agent here: CHILD count the llamas" },
	},
	{
		agent: "gemini",
		word: "quokkaberry",
		session: "d46b784e-2a92-408e-b3c6-6e32f3787118",
		resume: "cd /home/user/proj && gemini --resume d46b784e-2a92-408e-b3c6-6e32f3787118",
		user: "ask a helper what notes.txt says",
		tool: { name: "invoke_agent", output: "The secret word is quokkaberry" },
		subagent: { id: "2fecca0c-e4af-4399-aa0d-9f228cdf74ea", says: "quokkaberry" },
	},
] as const;
