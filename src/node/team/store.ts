/**
 * Where shards are kept, as objects by key: an S3 bucket and prefix (any S3 API: AWS, R2, MinIO, Ceph, s3rver), a
 * folder (`file:///dir`), or a read-only HTTP(S) server that honours Range (a bucket's website, nginx, a CDN).
 * Every failure is one line naming the place and what went wrong, never a key or a signature.
 */

import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { AwsClient } from "aws4fetch";
import { LookbackError } from "../../core/errors.js";
import type { Env } from "../home.js";
import { awsSettings } from "./aws-config.js";

export interface ObjectStore {
	/** The place as a person named it (`s3://bucket/prefix`), for messages. */
	readonly describe: string;
	readonly writable: boolean;
	/** The whole object, or undefined when there is none. */
	get(key: string): Promise<Uint8Array | undefined>;
	/** Bytes [start, end) of an object. */
	getRange(key: string, start: number, end: number): Promise<Uint8Array>;
	put(key: string, bytes: Uint8Array, contentType?: string): Promise<void>;
	/** Keys under a prefix (writable stores only). */
	list(prefix: string): Promise<string[]>;
	remove(key: string): Promise<void>;
}

const remoteError = (message: string) => new LookbackError("remote", message);

function refuse(where: string): never {
	throw new LookbackError("bad-argument", `${where} is read-only: publish to s3://bucket/prefix or file:///dir`);
}

/** A folder: objects are files, each written to a temporary name and renamed, so a reader never sees half of one. */
class FolderStore implements ObjectStore {
	readonly writable = true;
	constructor(
		private readonly dir: string,
		readonly describe: string,
	) {}
	private path(key: string): string {
		const path = resolve(this.dir, key);
		if (!path.startsWith(`${resolve(this.dir)}/`)) throw new LookbackError("bad-argument", `bad object key ${key}`);
		return path;
	}
	async get(key: string): Promise<Uint8Array | undefined> {
		try {
			return readFileSync(this.path(key));
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
			throw remoteError(`cannot read ${this.describe}/${key} (${(error as Error).message})`);
		}
	}
	async getRange(key: string, start: number, end: number): Promise<Uint8Array> {
		let fd: number;
		try {
			fd = openSync(this.path(key), "r");
		} catch (error) {
			throw remoteError(`cannot read ${this.describe}/${key} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
		}
		try {
			const out = new Uint8Array(end - start);
			let done = 0;
			while (done < out.length) {
				const n = readSync(fd, out, done, out.length - done, start + done);
				if (n === 0) throw remoteError(`${this.describe}/${key} is shorter than its manifest says (damaged shard)`);
				done += n;
			}
			return out;
		} finally {
			closeSync(fd);
		}
	}
	async put(key: string, bytes: Uint8Array): Promise<void> {
		const path = this.path(key);
		mkdirSync(dirname(path), { recursive: true });
		const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
		writeFileSync(temp, bytes);
		renameSync(temp, path);
	}
	async list(prefix: string): Promise<string[]> {
		const root = resolve(this.dir);
		const out: string[] = [];
		const walk = (dir: string) => {
			let names: string[];
			try {
				names = readdirSync(dir);
			} catch {
				return;
			}
			for (const name of names) {
				const path = join(dir, name);
				if (statSync(path).isDirectory()) walk(path);
				else if (!name.endsWith(".tmp")) out.push(path.slice(root.length + 1));
			}
		};
		walk(join(root, prefix));
		return out.filter((k) => k.startsWith(prefix));
	}
	async remove(key: string): Promise<void> {
		rmSync(this.path(key), { force: true });
	}
}

/** What a fetch failing to connect says, in a line. */
function unreachable(where: string, error: unknown): LookbackError {
	const cause = (error as { cause?: { code?: string; message?: string } }).cause;
	return remoteError(`cannot reach ${where} (${cause?.code ?? cause?.message ?? (error as Error).message})`);
}

/** Objects over HTTP(S), read-only: a bucket's website, nginx over a folder, a CDN. Needs Range (and CORS for a page). */
class HttpStore implements ObjectStore {
	readonly writable = false;
	constructor(
		private readonly base: string,
		readonly describe: string,
	) {}
	private async fetch(key: string, headers: Record<string, string> = {}): Promise<Response> {
		try {
			return await fetch(`${this.base}/${key}`, { headers });
		} catch (error) {
			throw unreachable(`${this.describe}/${key}`, error);
		}
	}
	async get(key: string): Promise<Uint8Array | undefined> {
		const response = await this.fetch(key);
		if (response.status === 404 || response.status === 403) return undefined;
		if (!response.ok) throw remoteError(`${this.describe}/${key}: HTTP ${response.status}`);
		return new Uint8Array(await response.arrayBuffer());
	}
	async getRange(key: string, start: number, end: number): Promise<Uint8Array> {
		const response = await this.fetch(key, { range: `bytes=${start}-${end - 1}` });
		const body = new Uint8Array(await response.arrayBuffer());
		if (response.status === 200) throw remoteError(`${this.describe} does not honour Range requests (HTTP 200 for a range)`);
		if (response.status !== 206) throw remoteError(`${this.describe}/${key}: HTTP ${response.status} for bytes ${start}-${end - 1}`);
		if (body.length !== end - start) throw remoteError(`${this.describe}/${key} is shorter than its manifest says (damaged shard)`);
		return body;
	}
	put(): Promise<void> {
		refuse(this.describe);
	}
	list(): Promise<string[]> {
		refuse(this.describe);
	}
	remove(): Promise<void> {
		refuse(this.describe);
	}
}

/** S3's error code in its XML reply (`<Code>ExpiredToken</Code>`), if any. */
function s3Code(text: string): string | undefined {
	return /<Code>([^<]+)<\/Code>/.exec(text)?.[1];
}

const CREDENTIAL_CODES = new Set([
	"InvalidAccessKeyId",
	"SignatureDoesNotMatch",
	"ExpiredToken",
	"TokenRefreshRequired",
	"InvalidToken",
	"RequestTimeTooSkewed",
	"AccessDenied",
	"AuthorizationHeaderMalformed",
]);

/** An S3 bucket and prefix, signed with aws4fetch (SigV4) from the standard AWS settings (aws-config.ts). */
class S3Store implements ObjectStore {
	readonly writable = true;
	private readonly client?: AwsClient;
	private readonly from: string;
	private readonly objectBase: string;
	constructor(
		bucket: string,
		private readonly prefix: string,
		readonly describe: string,
		env: Env,
	) {
		const settings = awsSettings(env);
		this.from = settings.from;
		if (settings.credentials) this.client = new AwsClient({ ...settings.credentials, service: "s3", region: settings.region, retries: 2 });
		// A custom endpoint is addressed path-style (MinIO, s3rver, Ceph); AWS itself by the bucket's own host.
		this.objectBase = settings.endpoint
			? `${settings.endpoint}/${encodeURIComponent(bucket)}`
			: `https://${bucket}.s3.${settings.region}.amazonaws.com`;
	}
	private key(key: string): string {
		return [this.prefix, key].filter((p) => p !== "").join("/");
	}
	private async send(url: string, init: RequestInit, what: string): Promise<Response> {
		let response: Response;
		try {
			response = this.client ? await this.client.fetch(url, init) : await fetch(url, init);
		} catch (error) {
			throw unreachable(`${this.describe} (${what})`, error);
		}
		if (response.status === 403 || response.status === 400 || response.status === 401) {
			const code = s3Code(await response.clone().text()) ?? `HTTP ${response.status}`;
			if (CREDENTIAL_CODES.has(code) || response.status !== 400) {
				const given = this.client ? `the credentials (${this.from})` : "a request without credentials (none found in AWS_* or ~/.aws)";
				throw new LookbackError("credentials", `${this.describe} refused ${given}: ${code}`);
			}
		}
		return response;
	}
	private url(key: string, query = ""): string {
		return `${this.objectBase}/${this.key(key).split("/").map(encodeURIComponent).join("/")}${query}`;
	}
	async get(key: string): Promise<Uint8Array | undefined> {
		const response = await this.send(this.url(key), {}, `GET ${key}`);
		if (response.status === 404) return undefined;
		if (!response.ok) throw remoteError(`${this.describe}/${key}: HTTP ${response.status}`);
		return new Uint8Array(await response.arrayBuffer());
	}
	async getRange(key: string, start: number, end: number): Promise<Uint8Array> {
		const response = await this.send(this.url(key), { headers: { range: `bytes=${start}-${end - 1}` } }, `GET ${key}`);
		const body = new Uint8Array(await response.arrayBuffer());
		if (response.status === 404) throw remoteError(`${this.describe}/${key} is missing (damaged shard)`);
		if (response.status !== 206 && !(response.status === 200 && start === 0 && body.length === end - start))
			throw remoteError(`${this.describe}/${key}: HTTP ${response.status} for bytes ${start}-${end - 1}`);
		if (body.length !== end - start) throw remoteError(`${this.describe}/${key} is shorter than its manifest says (damaged shard)`);
		return body;
	}
	async put(key: string, bytes: Uint8Array, contentType = "application/octet-stream"): Promise<void> {
		if (!this.client)
			throw new LookbackError(
				"credentials",
				`no AWS credentials to publish to ${this.describe} (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE)`,
			);
		const response = await this.send(
			this.url(key),
			{ method: "PUT", body: bytes as Uint8Array<ArrayBuffer>, headers: { "content-type": contentType } },
			`PUT ${key}`,
		);
		if (!response.ok) throw remoteError(`${this.describe}/${key}: HTTP ${response.status} for PUT`);
	}
	async list(prefix: string): Promise<string[]> {
		const keys: string[] = [];
		const base = this.key("");
		let token: string | undefined;
		do {
			const query = new URLSearchParams({ "list-type": "2", prefix: this.key(prefix), ...(token ? { "continuation-token": token } : {}) });
			const response = await this.send(`${this.objectBase}/?${query}`, {}, "LIST");
			const text = await response.text();
			if (!response.ok) throw remoteError(`${this.describe}: HTTP ${response.status} for LIST`);
			for (const m of text.matchAll(/<Key>([^<]+)<\/Key>/g)) keys.push(xmlText(m[1]).slice(base === "" ? 0 : base.length + 1));
			token = /<IsTruncated>true<\/IsTruncated>/.test(text) ? xmlText(/<NextContinuationToken>([^<]+)</.exec(text)?.[1] ?? "") : undefined;
		} while (token);
		return keys;
	}
	async remove(key: string): Promise<void> {
		const response = await this.send(this.url(key), { method: "DELETE" }, `DELETE ${key}`);
		if (!response.ok && response.status !== 404) throw remoteError(`${this.describe}/${key}: HTTP ${response.status} for DELETE`);
	}
}

const xmlText = (s: string) =>
	s.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" })[e] ?? "");

/** The store a URL names: `s3://bucket/prefix`, `file:///dir`, or `http(s)://host/path`. */
export function storeOf(url: string, env: Env = process.env): ObjectStore {
	const trimmed = url.trim().replace(/\/+$/, "");
	const s3 = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(trimmed);
	if (s3) return new S3Store(s3[1], s3[2] ?? "", trimmed, env);
	if (/^file:\/\//.test(trimmed)) return new FolderStore(fileURLToPath(trimmed), trimmed);
	if (/^https?:\/\//.test(trimmed)) return new HttpStore(trimmed, trimmed);
	throw new LookbackError("bad-argument", `a remote is s3://bucket/prefix, file:///dir or an http(s) URL, not "${url}"`);
}
