/**
 * Where S3's credentials, region and endpoint come from, in the AWS CLI's order: the variables, then the profile of
 * the shared files (the credentials file before the config file, `[profile NAME]` in the config), and never a key in
 * what the settings say of themselves.
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { awsSettings } from "../../src/node/team/aws-config.js";
import { tempDir } from "../helpers.js";

function home(credentials: string, config: string): string {
	const dir = tempDir("aws-home");
	writeFileSync(join(dir, "credentials"), credentials);
	writeFileSync(join(dir, "config"), config);
	return dir;
}

/** The shared files, written for each test (a temp dir lasts one test). */
const sharedFiles = () =>
	home(
		"[default]\naws_access_key_id = DEFAULTID\naws_secret_access_key = default-secret\n\n[team]\naws_access_key_id = TEAMID\naws_secret_access_key = team-secret\naws_session_token = team-token\n",
		"[default]\nregion = eu-west-1\n\n[profile team]\nregion = ap-south-1\nendpoint_url = http://127.0.0.1:9000/\n",
	);
function files(env: Record<string, string>) {
	const dir = sharedFiles();
	return { HOME: dir, AWS_SHARED_CREDENTIALS_FILE: join(dir, "credentials"), AWS_CONFIG_FILE: join(dir, "config"), ...env };
}

describe("AWS settings", () => {
	it("takes the variables first, AWS_ENDPOINT_URL_S3 before AWS_ENDPOINT_URL", () => {
		const s = awsSettings(
			files({
				AWS_ACCESS_KEY_ID: "ENVID",
				AWS_SECRET_ACCESS_KEY: "env-secret",
				AWS_SESSION_TOKEN: "env-token",
				AWS_PROFILE: "team",
				AWS_REGION: "us-west-2",
				AWS_ENDPOINT_URL: "http://general.example",
				AWS_ENDPOINT_URL_S3: "http://s3-only.example/",
			}),
		);
		expect(s).toEqual({
			credentials: { accessKeyId: "ENVID", secretAccessKey: "env-secret", sessionToken: "env-token" },
			region: "us-west-2",
			endpoint: "http://s3-only.example",
			from: "environment",
		});
		expect(awsSettings(files({ AWS_ENDPOINT_URL: "http://general.example" })).endpoint).toBe("http://general.example");
	});

	it("else the profile: its keys from the credentials file, its region and endpoint from [profile NAME] of the config", () => {
		const s = awsSettings(files({ AWS_PROFILE: "team" }));
		expect(s).toEqual({
			credentials: { accessKeyId: "TEAMID", secretAccessKey: "team-secret", sessionToken: "team-token" },
			region: "ap-south-1",
			endpoint: "http://127.0.0.1:9000",
			from: "profile team",
		});
		const d = awsSettings(files({ AWS_DEFAULT_REGION: "sa-east-1" }));
		expect([d.credentials?.accessKeyId, d.region, d.endpoint, d.from]).toEqual(["DEFAULTID", "sa-east-1", undefined, "profile default"]);
	});

	it("with neither, no credentials (a public bucket read unsigned) in AWS's default region; only half a key is none", () => {
		const none = awsSettings({ HOME: tempDir("aws-empty") });
		expect(none).toEqual({ credentials: undefined, region: "us-east-1", endpoint: undefined, from: "none" });
		expect(awsSettings({ HOME: tempDir("aws-empty"), AWS_ACCESS_KEY_ID: "ONLYID" }).credentials).toBeUndefined();
		expect(JSON.stringify([none.from, awsSettings(files({ AWS_PROFILE: "team" })).from])).not.toMatch(/secret|token/);
	});
});
