/**
 * Secrets of every kind lookback redacts, planted in sessions by the tests: each with the text it sits in (as a
 * person or a tool would write it), the secret that must never come out, and the kind its marker must name.
 * None is a real credential: they have the shapes of real ones (prefixes, lengths, base64 bodies).
 */

const base64 = (n: number, seed: string) => {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	let out = "";
	for (let i = 0; out.length < n; i++) out += alphabet[(i * 7 + seed.charCodeAt(i % seed.length)) % 64];
	return out;
};
const alnum = (n: number, seed: string) => base64(n, seed).replace(/[+/]/g, "x");

export interface Planted {
	kind: string;
	/** What must not come out. */
	secret: string;
	/** The text it is written in. */
	text: string;
	/** Which rules find it: secretlint's preset, or lookback's own. */
	by: "secretlint" | "lookback";
}

const privateKeyBody = `MII${base64(64 * 3 - 3, "rsa")}\n${base64(64, "rsa2")}\n${base64(40, "rsa3")}=`;
const shortKeyBody = `MIIEvQIBADANBgkqhkiG9w0BAQEFAASC`;

export const PLANTED: readonly Planted[] = [
	{
		kind: "aws-access-key-id",
		secret: "AKIA2E0A8F3B244C9986",
		text: "aws configure set aws_access_key_id AKIA2E0A8F3B244C9986",
		by: "secretlint",
	},
	{
		kind: "aws-secret-access-key",
		secret: "q8Hk2VbN7xP0wLmE4rT6yU1iO9aS3dF5gJ7hK2lZ",
		text: "aws_secret_access_key = q8Hk2VbN7xP0wLmE4rT6yU1iO9aS3dF5gJ7hK2lZ",
		by: "secretlint",
	},
	{
		kind: "github-token",
		secret: `ghp_${alnum(36, "gh")}`,
		text: `git remote set-url origin https://x:ghp_${alnum(36, "gh")}@github.com/acme/app`,
		by: "secretlint",
	},
	{
		kind: "gitlab-personal-access-token",
		secret: `glpat-${alnum(20, "gl")}`,
		text: `export GL=glpat-${alnum(20, "gl")} # for the runner`,
		by: "secretlint",
	},
	{
		kind: "slack-token",
		secret: `xoxb-263594206564-2343346224467-${alnum(24, "sl")}`,
		text: `SLACK bot: xoxb-263594206564-2343346224467-${alnum(24, "sl")}`,
		by: "secretlint",
	},
	{
		kind: "openai-token",
		secret: `sk-proj-${alnum(58, "oa")}T3BlbkFJ${alnum(58, "ob")}`,
		text: `client = OpenAI(api_key="sk-proj-${alnum(58, "oa")}T3BlbkFJ${alnum(58, "ob")}")`,
		by: "secretlint",
	},
	{
		kind: "anthropic-api-key",
		secret: `sk-ant-api03-${alnum(93, "an")}AA`,
		text: `the key is sk-ant-api03-${alnum(93, "an")}AA, keep it safe`,
		by: "secretlint",
	},
	{
		kind: "stripe-secret-key-live",
		secret: `sk_live_${alnum(24, "st")}`,
		text: `Stripe.apiKey("sk_live_${alnum(24, "st")}")`,
		by: "secretlint",
	},
	{
		kind: "npm-access-token",
		secret: `npm_${alnum(36, "np")}`,
		text: `//registry.npmjs.org/:_authToken=npm_${alnum(36, "np")}`,
		by: "secretlint",
	},
	{
		kind: "private-key",
		secret: privateKeyBody.split("\n")[0],
		text: `$ cat ~/.ssh/deploy_key\n-----BEGIN RSA PRIVATE KEY-----\n${privateKeyBody}\n-----END RSA PRIVATE KEY-----\n`,
		by: "secretlint",
	},
	{ kind: "basic-auth", secret: "Tr0ub4dor-3x", text: "curl https://deploy:Tr0ub4dor-3x@ci.example.com/hooks/build", by: "secretlint" },
	{
		kind: "postgresql-connection",
		secret: "pg-s3cret-pw",
		text: "DATABASE_URL is postgres://app:pg-s3cret-pw@db.internal:5432/shop",
		by: "secretlint",
	},
	// lookback's own rules: what secretlint's preset does not catch.
	{ kind: "url-password", secret: "r3d1s-pw-991", text: "REDIS=redis://:r3d1s-pw-991@cache.internal:6379/0", by: "lookback" },
	{ kind: "env-password", secret: "correct horse battery staple", text: 'SMTP_PASSWORD="correct horse battery staple"', by: "lookback" },
	{
		kind: "env-secret",
		secret: "9f8e7d6c5b4a39281706f5e4d3c2b1a0",
		text: "export SESSION_SECRET=9f8e7d6c5b4a39281706f5e4d3c2b1a0",
		by: "lookback",
	},
	{ kind: "password", secret: "hunter2-but-longer", text: '{ "user": "admin", "password": "hunter2-but-longer" }', by: "lookback" },
	{
		kind: "private-key",
		secret: shortKeyBody,
		text: `$ head -2 key.pem\n-----BEGIN PRIVATE KEY-----\n${shortKeyBody}`,
		by: "lookback",
	},
	{
		kind: "google-api-key",
		secret: `AIza${alnum(35, "go").replace(/[+/]/g, "_")}`,
		text: `maps key: AIza${alnum(35, "go").replace(/[+/]/g, "_")}`,
		by: "lookback",
	},
	{
		kind: "jwt",
		secret: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJsb29rYmFjay10ZXN0In0.dGhpcy1pcy1ub3QtYS1yZWFsLXNpZ25hdHVyZQ",
		text: "token: eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJsb29rYmFjay10ZXN0In0.dGhpcy1pcy1ub3QtYS1yZWFsLXNpZ25hdHVyZQ",
		by: "lookback",
	},
	{
		kind: "bearer-token",
		secret: "opaque0a1b2c3d4e5f6g7h8i9j",
		text: 'curl -H "Authorization: Bearer opaque0a1b2c3d4e5f6g7h8i9j" https://api.example.com',
		by: "lookback",
	},
];

/** Every planted text, one per line. */
export const PLANTED_TEXT = PLANTED.map((p) => p.text).join("\n");
