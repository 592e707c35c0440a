/**
 * How an agent finds its folders among the files a person picked in a page (web/src/picked-layout.ts). A browser
 * tells a folder's name, not its place, so each agent's folders are found by their shape wherever they sit in what
 * was picked and read with the agent's layout, as the command line reads them on disk.
 */

import type { LayoutWalk, Listing } from "../core/parse/layout.js";

/** The picked files as folders, while one folder is visited. */
export interface PickedAt {
	walk: LayoutWalk;
	/** The folder visited ("" holds what was picked). */
	dir: string;
	/** Its names. */
	here: Listing;
	/** Any picked folder's names (empty when it holds none). */
	listing(dir: string): Listing;
	/** Whether a picked file under `dir` (at any depth) has a name that passes `test`. */
	hasFileUnder(dir: string, test: (name: string) => boolean): boolean;
}

/** An agent's part of the picked layout; each step is asked of every agent in the registry's order. */
export interface PickedFolders {
	/** Whether a file is one the page takes for this agent (a session, or a file its layout reads beside them), by its picked path and name. */
	takes?(path: string, name: string): boolean;
	/** The folder visited is one of its projects: read it whole and say so (true), else false. Never asked of "". */
	project?(at: PickedAt): Promise<boolean>;
	/** Read the folders of the visited one that are its own (its sessions' folders); the names of those it read. */
	own?(at: PickedAt): Promise<string[]>;
	/** Read its session files picked loose in the visited folder, without its folders around them. */
	loose?(at: PickedAt): Promise<void>;
}
