/**
 * Credentials, region and endpoint for S3, the way the AWS CLI and SDKs find them: `AWS_ACCESS_KEY_ID`,
 * `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`, else the profile (`AWS_PROFILE`, default "default") of the shared
 * files (`AWS_SHARED_CREDENTIALS_FILE`, `AWS_CONFIG_FILE`, default `~/.aws/credentials` and `~/.aws/config`);
 * `AWS_REGION`, `AWS_DEFAULT_REGION` or the profile's `region`; `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL` or the
 * profile's `endpoint_url` (MinIO, R2, Ceph, s3rver). Not read: `credential_process`, SSO and instance roles, which
 * need the SDK's providers (README, "A team's history"). A key is only ever handed to the signer: never printed,
 * logged or written.
 */

import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Env } from "../home.js";

interface AwsCredentials {
	accessKeyId: string;
	secretAccessKey: string;
	sessionToken?: string;
}

export interface AwsSettings {
	/** Undefined: no credentials found (a public bucket is read unsigned). */
	credentials?: AwsCredentials;
	region: string;
	/** A custom endpoint (path-style requests), or undefined for AWS itself (virtual-hosted). */
	endpoint?: string;
	/** Where the credentials came from, for messages: "environment", "profile NAME" (never the key). */
	from: string;
}

/** The sections of an INI file as the AWS files write them: `[name]` or `[profile name]`, then `key = value` lines. */
function iniSections(path: string): Map<string, Map<string, string>> {
	const sections = new Map<string, Map<string, string>>();
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch {
		return sections;
	}
	let current: Map<string, string> | undefined;
	for (const raw of text.split(/\r?\n/)) {
		const line = raw.trim();
		if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
		const header = /^\[\s*(?:profile\s+)?([^\]]+?)\s*\]$/.exec(line);
		if (header) {
			current = sections.get(header[1]) ?? new Map();
			sections.set(header[1], current);
			continue;
		}
		const eq = line.indexOf("=");
		if (current && eq > 0) current.set(line.slice(0, eq).trim().toLowerCase(), line.slice(eq + 1).trim());
	}
	return sections;
}

export function awsSettings(env: Env = process.env): AwsSettings {
	const home = env.HOME || homedir();
	const profile = env.AWS_PROFILE || env.AWS_DEFAULT_PROFILE || "default";
	const credentialsFile = iniSections(env.AWS_SHARED_CREDENTIALS_FILE || join(home, ".aws", "credentials")).get(profile);
	const configFile = iniSections(env.AWS_CONFIG_FILE || join(home, ".aws", "config")).get(profile);
	const fromProfile = (key: string) => credentialsFile?.get(key) ?? configFile?.get(key);
	let credentials: AwsCredentials | undefined;
	let from = "none";
	if (env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY) {
		credentials = {
			accessKeyId: env.AWS_ACCESS_KEY_ID,
			secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
			...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
		};
		from = "environment";
	} else {
		const id = fromProfile("aws_access_key_id");
		const secret = fromProfile("aws_secret_access_key");
		const token = fromProfile("aws_session_token");
		if (id && secret) {
			credentials = { accessKeyId: id, secretAccessKey: secret, ...(token ? { sessionToken: token } : {}) };
			from = `profile ${profile}`;
		}
	}
	const region = env.AWS_REGION || env.AWS_DEFAULT_REGION || fromProfile("region") || "us-east-1";
	const endpoint = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || fromProfile("endpoint_url") || undefined;
	return { credentials, region, endpoint: endpoint?.replace(/\/+$/, ""), from };
}
