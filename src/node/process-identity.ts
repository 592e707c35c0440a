/**
 * Who a process is, in a form that survives its death: pid, start time and boot id. A pid alone is not
 * enough: pids are reused, and a SIGKILLed child that nobody reaped still answers `kill(pid, 0)`.
 */

import { readFileSync } from "node:fs";

export interface ProcessIdentity {
	pid: number;
	/** Start time in clock ticks since boot (`/proc/<pid>/stat` field 22), "-" where unknown. */
	start: string;
	/** The first characters of the kernel's boot id, "-" where unknown. */
	boot: string;
}

function readBoot(): string {
	try {
		return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim().slice(0, 8) || "-";
	} catch {
		return "-";
	}
}

const BOOT = readBoot();

/** The start time of a process, "zombie" for a dead unreaped one, or undefined where /proc cannot tell. */
function startTime(pid: number): string | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		const fields = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
		return fields[0] === "Z" || fields[0] === "X" ? "zombie" : fields[19];
	} catch {
		return undefined;
	}
}

export const SELF: ProcessIdentity = { pid: process.pid, start: startTime(process.pid) ?? "-", boot: BOOT };

/** Whether the process that wrote `who` still runs (the same process, not a later one with its pid). */
export function processLives(who: ProcessIdentity): boolean {
	if (!(who.pid > 0)) return false;
	if (who.boot !== "-" && BOOT !== "-" && who.boot !== BOOT) return false;
	try {
		process.kill(who.pid, 0);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
	}
	const now = startTime(who.pid);
	if (now === "zombie") return false;
	return now === undefined || who.start === "-" || now === who.start;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Block the thread for `ms` (used only inside the engine's synchronous file calls, where awaiting is impossible). */
export function sleepSync(ms: number): void {
	Atomics.wait(sleeper, 0, 0, ms);
}
