/**
 * Credentials of providers secretlint's recommended preset has no rule for, and credentials given on a command
 * line, as gitleaks' rule set (MIT) describes them: each pattern here is the shape gitleaks documents for it
 * (its rule id in brackets), narrowed to the secret part. Tested by test/safety/redaction.test.ts.
 */

import type { OwnFinding } from "./own-rules.js";

/** One rule: a global pattern, the group that holds the secret (0: the whole match), and the kind its marker names. */
interface TokenRule {
	pattern: RegExp;
	group: number;
	kind: string;
	/** A further check of the secret (Docker's auth must decode to `user:secret`). */
	holds?(secret: string): boolean;
}

/** Whether base64 text decodes to `user:password`. */
function isUserPassword(text: string): boolean {
	try {
		return /^[^:\s]{1,100}:\S{4,}$/.test(atob(text));
	} catch {
		return false;
	}
}

const TOKEN_RULES: readonly TokenRule[] = [
	{ pattern: /\bSK[0-9a-fA-F]{32}\b/g, group: 0, kind: "twilio-api-key" }, // [twilio-api-key]
	{ pattern: /\bkey-[0-9a-z]{32}\b/g, group: 0, kind: "mailgun-api-key" }, // [mailgun-private-api-token]
	{ pattern: /\bhf_[A-Za-z0-9]{34,40}\b/g, group: 0, kind: "huggingface-token" }, // [huggingface-access-token]
	{ pattern: /\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}/g, group: 0, kind: "pypi-token" }, // [pypi-upload-token]
	{ pattern: /\bdo[opr]_v1_[a-f0-9]{64}\b/g, group: 0, kind: "digitalocean-token" }, // [digitalocean-pat]
	{ pattern: /\bhv[sb]\.[A-Za-z0-9_-]{24,}/g, group: 0, kind: "vault-token" }, // [vault-service-token]
	{ pattern: /\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b/g, group: 0, kind: "age-secret-key" }, // [age-secret-key]
	{ pattern: /\b\d{8,10}:AA[A-Za-z0-9_-]{32,33}\b/g, group: 0, kind: "telegram-bot-token" }, // [telegram-bot-api-token]
	{ pattern: /\btskey-[a-z]+-[A-Za-z0-9]{10,}-[A-Za-z0-9]{20,}/g, group: 0, kind: "tailscale-key" },
	{ pattern: /\bsk_(?:live|test)_[0-9A-Za-z]{24,}\b/g, group: 0, kind: "stripe-secret-key" }, // [stripe-access-token]
	// [discord-webhook]: the token after the webhook's id.
	{
		pattern: /https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d+\/([A-Za-z0-9_-]{60,})/g,
		group: 1,
		kind: "discord-webhook",
	},
	// [azure-storage-account-key] and Service Bus / Event Hubs keys in a connection string; a SAS URL's signature.
	{ pattern: /\b(?:AccountKey|SharedAccessKey)=([A-Za-z0-9+/]{40,}={0,2})/g, group: 1, kind: "azure-key" },
	{ pattern: /[?&]sig=([A-Za-z0-9%+/=_-]{20,})/g, group: 1, kind: "azure-sas-signature" },
	// Docker's config.json: `"auth": "<base64 of user:password>"`.
	{ pattern: /\\?"auth\\?"\s*:\s*\\?"([A-Za-z0-9+/]{12,}={0,2})\\?"/g, group: 1, kind: "docker-auth", holds: isUserPassword },
	// A password given on a command line: `curl -u user:pw`, `--user 'api:key'`, `mysql -pPW`, `docker login -p PW`,
	// `--password PW`, `--token T`, `--api-key K` (not `--password-stdin`, nor `-p 8080`).
	{
		pattern: /(?<=\s)(?:-u|--user)[ =]?(['"]?)[^\s:'"]+:([^\s'"]{4,})\1/g,
		group: 2,
		kind: "basic-auth",
		holds: (s) => !/^\d+$/.test(s), // `docker run -u 1000:1000` names a uid and a gid
	},
	{ pattern: /\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]*?\s-p([^\s'"-][^\s'"]{3,})/g, group: 1, kind: "password" },
	{
		// Only where `-p` is a password: a registry's login, twine's upload, sshpass (`docker run -p 8080:80` is a port).
		pattern:
			/\b(?:(?:docker|podman|nerdctl|skopeo|buildah|oras|helm registry) login|twine upload|sshpass)\b[^\n]*?\s-p[ =](['"]?)([^\s'"-][^\s'"]{3,})\1/g,
		group: 2,
		kind: "password",
	},
	{
		pattern:
			/(?<=\s)--(?:password|passwd|pass|token|access-token|auth-token|api-key|apikey|secret|client-secret|secret-key)[ =](['"]?)([^\s'"$<-][^\s'"]{5,})\1/g,
		group: 2,
		kind: "secret",
	},
	// Prose: "with secret X", "token: X", "password is X", where X is a long mixed string (letters of both cases
	// and digits, as no word, hash or id is).
	{
		pattern: /\b(?:secret|token|password|passwd|api[ _-]?key)(?:\s+is)?[\s:=]+(['"]?)([A-Za-z0-9_+/.-]{20,})\1/gi,
		group: 2,
		kind: "secret",
		holds: (s) => /[a-z]/.test(s) && /[A-Z]/.test(s) && /\d/.test(s) && !/EXAMPLE/.test(s),
	},
];

/** What these rules find in `text`. */
export function tokenFindings(text: string): OwnFinding[] {
	const found: OwnFinding[] = [];
	for (const rule of TOKEN_RULES) {
		rule.pattern.lastIndex = 0;
		for (let m = rule.pattern.exec(text); m; m = rule.pattern.exec(text)) {
			const secret = m[rule.group];
			if (!secret || (rule.holds && !rule.holds(secret))) continue;
			const start = m.index + (rule.group === 0 ? 0 : m[0].lastIndexOf(secret));
			found.push({ start, end: start + secret.length, kind: rule.kind });
		}
	}
	return found;
}
