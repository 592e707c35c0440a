/** The servers the team tests start on 127.0.0.1: s3rver (an S3 API from the npm registry) and Debian's nginx over a folder. */

import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import S3rver from "s3rver";
import { tempDir } from "./helpers.js";

export interface Running {
	url: string;
	close(): Promise<void>;
}

/** s3rver with one bucket, keeping its objects in a temp folder; its one account is S3RVER / S3RVER. */
export async function startS3(bucket: string): Promise<Running & { dir: string }> {
	const dir = tempDir("s3rver");
	const server = new S3rver({
		address: "127.0.0.1",
		port: 0,
		silent: true,
		directory: dir,
		configureBuckets: [{ name: bucket, configs: [] }],
	});
	const { port } = (await server.run()) as AddressInfo;
	return { url: `http://127.0.0.1:${port}`, dir, close: () => server.close() };
}

/** The environment that points the CLI at it, as a person sets AWS's variables. */
export const s3Env = (endpoint: string): Record<string, string> => ({
	AWS_ACCESS_KEY_ID: "S3RVER",
	AWS_SECRET_ACCESS_KEY: "S3RVER",
	AWS_ENDPOINT_URL: endpoint,
	AWS_REGION: "us-east-1",
	HOME: tempDir("home"),
});

/**
 * In front of an S3 server, S3's own reply to an expired session token (s3rver checks access keys, not tokens):
 * a request signed with the token "expired-token" gets `ExpiredToken`, the rest pass through.
 */
export async function expiringProxy(target: string): Promise<Running> {
	const to = new URL(target);
	const server: Server = createServer((req, res) => {
		if (req.headers["x-amz-security-token"] === "expired-token") {
			res.writeHead(400, { "content-type": "application/xml" });
			res.end(
				'<?xml version="1.0" encoding="UTF-8"?><Error><Code>ExpiredToken</Code><Message>The provided token has expired.</Message></Error>',
			);
			return;
		}
		const upstream = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (reply) => {
			res.writeHead(reply.statusCode ?? 502, reply.headers);
			reply.pipe(res);
		});
		req.pipe(upstream);
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * Debian's nginx (scripts/ensure-test-tools.mjs) serving `root` read-only on 127.0.0.1 (its worker as the tests' own
 * user, who alone reads their temporary folders), with Range (its default for
 * static files) and the CORS headers a page on another origin needs to read a bucket by ranges.
 */
export async function startNginx(root: string, port: number): Promise<Running> {
	const dir = tempDir("nginx");
	mkdirSync(join(dir, "logs"));
	const conf = join(dir, "nginx.conf");
	writeFileSync(
		conf,
		`daemon off;
${process.getuid?.() === 0 ? "user root root;" : ""}
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  types { application/json json; }
  default_type application/octet-stream;
  server {
    listen 127.0.0.1:${port};
    root ${root};
    add_header Access-Control-Allow-Origin * always;
    add_header Access-Control-Expose-Headers "Content-Range, Content-Length, ETag" always;
    location / {
      limit_except GET HEAD { deny all; }
      if ($request_method = OPTIONS) { add_header Access-Control-Allow-Origin *; add_header Access-Control-Allow-Headers "Range"; return 204; }
    }
  }
}
`,
	);
	const child: ChildProcess = spawn("/usr/sbin/nginx", ["-c", conf, "-p", dir], { stdio: ["ignore", "ignore", "pipe"] });
	let said = "";
	child.stderr?.on("data", (d) => (said += d));
	const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
	const url = `http://127.0.0.1:${port}`;
	for (let i = 0; ; i++) {
		if (child.exitCode !== null) throw new Error(`nginx did not start: ${said}`);
		try {
			await fetch(`${url}/`);
			break;
		} catch {
			if (i > 100) throw new Error("nginx does not answer");
			await new Promise((r) => setTimeout(r, 50));
		}
	}
	return {
		url,
		close: async () => {
			if (child.exitCode === null) child.kill("SIGTERM");
			await exited;
		},
	};
}

/** A port free on 127.0.0.1 now (for a server that cannot take port 0 and say which it got). */
export async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise((resolve) => server.close(resolve));
	return port;
}
