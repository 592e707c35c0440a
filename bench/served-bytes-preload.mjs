// Loaded into `lookback serve` by bench/browser-served.mjs (`node --import ./bench/served-bytes-preload.mjs
// dist/cli.js serve …`, forked with an IPC channel): answers the message "counts" with what the server sent
// for /index.db so far, and the message { before: epoch ms } with what it sent for the requests that started before
// then. The server itself is the one users run; only the counting is added.
import { countServedBytes } from "./served-bytes.mjs";

const { counts, before } = countServedBytes("/index.db");
process.on("message", (message) => {
	if (message === "counts") process.send?.({ ...counts });
	else if (typeof message?.before === "number") process.send?.(before(message.before));
});
// The channel must not keep the server alive once it has stopped.
process.channel?.unref();
