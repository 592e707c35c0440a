// README's first command: index the bundled sample sessions and run a few searches with the real CLI.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";

// Only the bundled samples: not the Pi or omp history of whoever runs the demo.
const common = ["--sessions-dir", "test/fixtures/sessions", "--only-sessions-dir", "--index", ".demo/index.db"];
rmSync(".demo", { recursive: true, force: true });
// An index path given is made only in a folder that exists.
mkdirSync(".demo");

function lookback(...args) {
	console.log(`\n$ lookback ${args.join(" ")}`);
	execFileSync(process.execPath, ["dist/cli.js", ...args, ...common], { stdio: "inherit" });
}

lookback("index");
lookback("search", "why did we pick sql.js");
lookback("search", "database is locked", "--role", "tool");
lookback("search", "tateSto");
lookback("search", "死锁");
lookback("search", "RabbitMQ", "--limit", "3");
lookback("browse", "--limit", "3");
lookback("stats");
