// The omp end-to-end tests run the real oh-my-pi on Bun. Both come from the npm registry, installed here
// into .tools/omp (not devDependencies: omp's optional per-platform packages for other systems are not all on
// the registry, which would break `npm ci`). omp 18.2.3 is the newest release whose dependencies all install.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const dir = join(".tools", "omp");
const omp = join(dir, "node_modules", "@oh-my-pi", "pi-coding-agent", "package.json");
const bun = join(dir, "node_modules", ".bin", "bun");
if (!existsSync(omp) || !existsSync(bun)) {
	console.error("installing bun@1.4.5 and @oh-my-pi/pi-coding-agent@18.2.3 into .tools/omp for the omp tests…");
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, "package.json"), '{ "private": true }\n');
	execFileSync(
		"npm",
		[
			"install",
			"--no-package-lock",
			"--ignore-scripts",
			"--no-audit",
			"--no-fund",
			"--loglevel=error",
			"bun@1.4.5",
			"@oh-my-pi/pi-coding-agent@18.2.3",
		],
		{ cwd: dir, stdio: "inherit" },
	);
}
// bun's postinstall links the binary its platform package already ships (nothing is downloaded).
execFileSync(process.execPath, [join("node_modules", "bun", "install.js")], { cwd: dir, stdio: "ignore" });
execFileSync(bun, ["--version"], { stdio: "ignore" });
