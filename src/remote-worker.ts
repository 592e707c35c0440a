/** Entry of a remote team's worker threads (src/node/team/remote-worker.ts), built as dist/remote-worker.js. */

import { runRemoteWorker } from "./node/team/remote-worker.js";

runRemoteWorker();
