// The omp end-to-end tests run the real oh-my-pi on Bun. Both come from the npm registry, installed here
// into .tools/omp (not devDependencies: omp's optional per-platform packages for other systems are not all on
// the registry, which would break `npm ci`). omp 18.2.3 is the newest release whose dependencies all install.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { installTool } from "./tools-install.mjs";

const dir = join(".tools", "omp");
const omp = join(dir, "node_modules", "@oh-my-pi", "pi-coding-agent", "package.json");
const bun = join(dir, "node_modules", ".bin", "bun");
if (!existsSync(omp) || !existsSync(bun)) {
	console.error("installing bun@1.4.5 and @oh-my-pi/pi-coding-agent@18.2.3 into .tools/omp for the omp tests…");
	installTool("omp", ["bun@1.4.5", "@oh-my-pi/pi-coding-agent@18.2.3"], { scripts: false });
}
// bun's postinstall links the binary its platform package already ships (nothing is downloaded).
execFileSync(process.execPath, [join("node_modules", "bun", "install.js")], { cwd: dir, stdio: "ignore" });
execFileSync(bun, ["--version"], { stdio: "ignore" });
