/**
 * A hostile-realistic session's worth of secrets: 47 credentials as people paste them into an agent and as tools
 * print them (commands that open with a secret's assignment, `curl -u`, connection strings, config files, key
 * files), and 25 near misses that look like secrets and are not (placeholders, documented example keys, hashes,
 * public keys, references to variables). None is a real credential: each has the shape of one (its prefix, length
 * and alphabet), made from a seed.
 */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
/** `n` characters of base64's alphabet, scrambled from `seed` (not a pattern a rule could key on). */
function b64(n: number, seed: string): string {
	let h = 2166136261;
	for (const c of seed) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
	let out = "";
	for (let i = 0; out.length < n; i++) {
		h = Math.imul(h ^ (h >>> 13), 2654435761) + i;
		out += ALPHABET[(h >>> 7) % 64];
	}
	return out;
}
const alnum = (n: number, seed: string) => b64(n, seed).replace(/[+/]/g, (c) => (c === "+" ? "q" : "Z"));
const hex = (n: number, seed: string) =>
	b64(n, seed)
		.split("")
		.map((c) => "0123456789abcdef"[ALPHABET.indexOf(c) % 16])
		.join("");
const lower = (n: number, seed: string) => alnum(n, seed).toLowerCase();

export interface Secret {
	/** What it is, for a failing test's message. */
	name: string;
	/** What must never come out. */
	secret: string;
	/** Where it stands: a person's message, a tool call's command, or a tool's output. */
	at: "user" | "command" | "output";
	/** The text it is written in. */
	text: string;
	/** What must survive around it (punctuation, the rest of a command). */
	keeps?: string[];
}

const opensshBody = Array.from({ length: 6 }, (_, i) => b64(70, `openssh${i}`)).join("\n");
const rsaBody = Array.from({ length: 8 }, (_, i) => b64(64, `rsa${i}`)).join("\n");
const gcpKey = `MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ${b64(60, "gcp")}`;

/** Docker's `auth`: base64 of `user:token`. */
const dockerAuth = btoa(`acme:${alnum(36, "dockerauth")}`);
/** bech32's alphabet, as age writes its keys. */
const bech32 = (n: number, seed: string) =>
	b64(n, seed)
		.split("")
		.map((c) => "qpzry9x8gf2tvdw0s3jn54khce6mua7l"[ALPHABET.indexOf(c) % 32])
		.join("");

const s = (name: string, secret: string, at: Secret["at"], text: string, keeps?: string[]): Secret => ({ name, secret, at, text, keeps });

export const SECRETS: readonly Secret[] = [
	s(
		"aws access key id",
		`AKIA${alnum(16, "akid").toUpperCase()}`,
		"command",
		`aws configure set aws_access_key_id AKIA${alnum(16, "akid").toUpperCase()}`,
	),
	s("aws secret", b64(40, "awssecret"), "output", `[default]\naws_secret_access_key = ${b64(40, "awssecret")}\nregion = eu-west-1`, [
		"region = eu-west-1",
	]),
	s("github classic token", `ghp_${alnum(36, "ghp")}`, "user", `here is my token ghp_${alnum(36, "ghp")}, use it for the release`, [
		", use it for the release",
	]),
	s(
		"github fine-grained token",
		`github_pat_${alnum(22, "fg1")}_${alnum(59, "fg2")}`,
		"command",
		`GH_TOKEN=github_pat_${alnum(22, "fg1")}_${alnum(59, "fg2")} gh pr list`,
		["gh pr list"],
	),
	s(
		"gitlab token",
		`glpat-${alnum(20, "glpat")}`,
		"command",
		`git clone https://oauth2:glpat-${alnum(20, "glpat")}@gitlab.com/acme/infra.git`,
		["@gitlab.com/acme/infra.git"],
	),
	s(
		"slack bot token",
		`xoxb-2635942065-2343346224467-${alnum(24, "slack")}`,
		"user",
		`the bot token: xoxb-2635942065-2343346224467-${alnum(24, "slack")}.`,
	),
	s(
		"slack webhook",
		`https://hooks.slack.com/services/T0${alnum(8, "t").toUpperCase()}/B0${alnum(8, "b").toUpperCase()}/${alnum(24, "hook")}`,
		"command",
		`curl -X POST -d '{"text":"deployed"}' https://hooks.slack.com/services/T0${alnum(8, "t").toUpperCase()}/B0${alnum(8, "b").toUpperCase()}/${alnum(24, "hook")}`,
		[`-d '{"text":"deployed"}'`],
	),
	s(
		"openai key",
		`sk-proj-${alnum(58, "oa1")}T3BlbkFJ${alnum(58, "oa2")}`,
		"user",
		`OPENAI_API_KEY is sk-proj-${alnum(58, "oa1")}T3BlbkFJ${alnum(58, "oa2")} (project key)`,
		["(project key)"],
	),
	s("anthropic key", `sk-ant-api03-${alnum(93, "ant")}AA`, "output", `ANTHROPIC_API_KEY=sk-ant-api03-${alnum(93, "ant")}AA`),
	s(
		"stripe live key",
		`sk_live_${alnum(24, "stripe")}`,
		"command",
		`stripe charges list --api-key sk_live_${alnum(24, "stripe")} --limit 3`,
		["--limit 3"],
	),
	s("npm token", `npm_${alnum(36, "npm")}`, "output", `//registry.npmjs.org/:_authToken=npm_${alnum(36, "npm")}\nalways-auth=true`, [
		"always-auth=true",
	]),
	s(
		"openssh private key",
		opensshBody.split("\n")[2],
		"output",
		`-----BEGIN OPENSSH PRIVATE KEY-----\n${opensshBody}\n-----END OPENSSH PRIVATE KEY-----`,
	),
	s("rsa private key", rsaBody.split("\n")[4], "output", `-----BEGIN RSA PRIVATE KEY-----\n${rsaBody}\n-----END RSA PRIVATE KEY-----`),
	s("password in an https url", "Tr0ub4dor-3x-ci", "command", "git push https://deploy:Tr0ub4dor-3x-ci@ci.example.com/acme/app.git main", [
		"@ci.example.com/acme/app.git main",
	]),
	s("postgres url", "pg-S3cret-2024", "user", "the prod db is postgres://app:pg-S3cret-2024@db.internal:5432/shop, read-only please", [
		", read-only please",
	]),
	s("mysql url", "my-Sql-pw-8812", "output", "DATABASE_URL=mysql://root:my-Sql-pw-8812@127.0.0.1:3306/crm"),
	s(
		"mongodb url",
		"M0ngo-atlas-pw",
		"command",
		'mongosh "mongodb+srv://admin:M0ngo-atlas-pw@cluster0.ab1cd.mongodb.net/test" --eval "db.stats()"',
		['--eval "db.stats()"'],
	),
	s("redis url", "r3dis-cache-pw", "output", "REDIS_URL=redis://:r3dis-cache-pw@cache.internal:6379/0"),
	s(
		"PGPASSWORD opening a command",
		"pg-dump-pw-7731",
		"command",
		"PGPASSWORD=pg-dump-pw-7731 pg_dump -h db.internal -U app shop > shop.sql",
		["pg_dump -h db.internal -U app shop > shop.sql"],
	),
	s("curl -u", "s3cr3t-api-pass", "command", "curl -u admin:s3cr3t-api-pass https://jenkins.internal/api/json", [
		"https://jenkins.internal/api/json",
	]),
	s(
		"twilio auth token",
		hex(32, "twauth"),
		"command",
		`curl -X POST https://api.twilio.com/2010-04-01/Accounts/AC${hex(32, "twsid")}/Messages.json -u AC${hex(32, "twsid")}:${hex(32, "twauth")}`,
	),
	s("twilio api key", `SK${hex(32, "twkey")}`, "output", `Created API key SK${hex(32, "twkey")} with secret ${alnum(32, "twsec")}`),
	s("twilio api key secret", alnum(32, "twsec"), "output", `Created API key SK${hex(32, "twkey")} with secret ${alnum(32, "twsec")}`),
	s(
		"azure storage connection string",
		`${b64(86, "azkey")}==`,
		"output",
		`AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=acmeprod;AccountKey=${b64(86, "azkey")}==;EndpointSuffix=core.windows.net"`,
		["AccountName=acmeprod;"],
	),
	s(
		"azure sas signature",
		`${alnum(43, "sas")}%3D`,
		"command",
		`azcopy copy ./dist "https://acmeprod.blob.core.windows.net/web?sv=2022-11-02&ss=b&srt=co&sp=rwdlac&se=2026-12-31T00:00:00Z&sig=${alnum(43, "sas")}%3D" --recursive`,
		["--recursive"],
	),
	s(
		"mailgun key",
		`key-${lower(32, "mailgun")}`,
		"command",
		`curl -s --user 'api:key-${lower(32, "mailgun")}' https://api.mailgun.net/v3/mg.acme.com/messages`,
		["https://api.mailgun.net/v3/mg.acme.com/messages"],
	),
	s("docker config auth", dockerAuth, "output", `{\n  "auths": {\n    "ghcr.io": {\n      "auth": "${dockerAuth}"\n    }\n  }\n}`),
	s("sendgrid key", `SG.${alnum(22, "sg1")}.${alnum(43, "sg2")}`, "user", `SENDGRID: SG.${alnum(22, "sg1")}.${alnum(43, "sg2")}`),
	s(
		"google api key",
		`AIza${alnum(35, "gapi")}`,
		"output",
		`  "apiKey": "AIza${alnum(35, "gapi")}",\n  "authDomain": "acme.firebaseapp.com",`,
		['"authDomain": "acme.firebaseapp.com",'],
	),
	s(
		"jwt",
		`eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI${alnum(40, "jwt1")}.${alnum(43, "jwt2")}`,
		"user",
		`session cookie was eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI${alnum(40, "jwt1")}.${alnum(43, "jwt2")}; it expired`,
		["; it expired"],
	),
	s("bearer token", alnum(40, "bearer"), "command", `curl -H "Authorization: Bearer ${alnum(40, "bearer")}" https://api.acme.com/v1/me`, [
		"https://api.acme.com/v1/me",
	]),
	s(".env password", "Winter2024!Db", "output", "DB_HOST=db.internal\nDB_PASSWORD=Winter2024!Db\nDB_PORT=5432", ["DB_PORT=5432"]),
	s("json password", "hunter2-but-longer", "output", '{ "user": "admin", "password": "hunter2-but-longer", "port": 8080 }', [
		', "port": 8080 }',
	]),
	s(
		"hugging face token",
		`hf_${alnum(34, "hf")}`,
		"command",
		`huggingface-cli login --token hf_${alnum(34, "hf")} --add-to-git-credential`,
		["--add-to-git-credential"],
	),
	s("shopify token", `shpat_${hex(32, "shop")}`, "user", `Shopify admin token shpat_${hex(32, "shop")}`),
	s(
		"discord webhook",
		alnum(68, "discord"),
		"command",
		`curl -H "Content-Type: application/json" -d '{"content":"up"}' https://discord.com/api/webhooks/112233445566778899/${alnum(68, "discord")}`,
	),
	s("telegram bot token", `7123456789:AA${alnum(33, "tg")}`, "output", `TELEGRAM_BOT=7123456789:AA${alnum(33, "tg")}`),
	s(
		"gcp service account key",
		gcpKey,
		"output",
		`{\n  "type": "service_account",\n  "project_id": "acme-prod",\n  "private_key": "-----BEGIN PRIVATE KEY-----\\n${gcpKey}\\n-----END PRIVATE KEY-----\\n",\n  "client_email": "ci@acme-prod.iam.gserviceaccount.com"\n}`,
		['"client_email": "ci@acme-prod.iam.gserviceaccount.com"'],
	),
	s("datadog api key", hex(32, "dd"), "command", `DD_API_KEY=${hex(32, "dd")} DD_SITE=datadoghq.eu ./install_script.sh`, [
		"./install_script.sh",
	]),
	s(
		"pypi token",
		`pypi-AgEIcHlwaS5vcmc${alnum(60, "pypi")}`,
		"command",
		`twine upload -u __token__ -p pypi-AgEIcHlwaS5vcmc${alnum(60, "pypi")} dist/*`,
		["dist/*"],
	),
	s("linear key", `lin_api_${alnum(40, "linear")}`, "user", `linear: lin_api_${alnum(40, "linear")}`),
	s("digitalocean token", `dop_v1_${hex(64, "do")}`, "command", `doctl auth init --access-token dop_v1_${hex(64, "do")}`),
	s("vault token", `hvs.${alnum(24, "vault")}`, "output", `Key      Value\ntoken    hvs.${alnum(24, "vault")}\ntoken_ttl 768h`, [
		"token_ttl 768h",
	]),
	s(
		"age secret key",
		`AGE-SECRET-KEY-1${bech32(58, "age").toUpperCase()}`,
		"output",
		`# public key: age1${bech32(58, "agepub")}\nAGE-SECRET-KEY-1${bech32(58, "age").toUpperCase()}`,
	),
	s("mysql -p password", "Sup3r-s3cret", "command", "mysql -h db.internal -u root -pSup3r-s3cret crm -e 'select 1'", ["crm -e 'select 1'"]),
	s("docker login -p", "dckr-Pw-00917", "command", "docker login -u acme -p dckr-Pw-00917 registry.acme.com", ["registry.acme.com"]),
	s(
		"kubectl literal password",
		"k8s-Db-pw-4411",
		"command",
		"kubectl create secret generic db --from-literal=password=k8s-Db-pw-4411 -n prod",
		["-n prod"],
	),
];

export interface NearMiss {
	name: string;
	text: string;
}

export const NEAR_MISSES: readonly NearMiss[] = [
	{ name: "placeholder", text: "export OPENAI_API_KEY=YOUR_API_KEY_HERE" },
	{ name: "aws's documented example id", text: "aws_access_key_id = AKIAIOSFODNN7EXAMPLE" },
	{ name: "aws's documented example secret", text: "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" },
	{ name: "a commit", text: "commit 9fceb02d0ae598e95dc970b74767f19372d61af8 fixed the queue" },
	{ name: "a session id", text: "resume with pi --session 01a120c2-3180-7535-afae-76d8368b3493" },
	{ name: "an image digest", text: `node@sha256:${hex(64, "digest")}` },
	{ name: "an npm integrity", text: `"integrity": "sha512-${b64(86, "integrity")}=="` },
	{ name: "a type", text: "interface Login { user: string; password: string; }" },
	{ name: "a variable's value", text: ["DB_PASSWORD=$", "{DB_PASSWORD} docker compose up"].join("") },
	{ name: "an environment lookup", text: 'api_key = os.environ["OPENAI_API_KEY"]' },
	{ name: "a call", text: "const token = await getToken(session);" },
	{ name: "password from stdin", text: "echo $CR_PAT | docker login ghcr.io -u acme --password-stdin" },
	{ name: "a url with a user only", text: "git clone https://dev@bitbucket.org/acme/app.git" },
	{ name: "a url without credentials", text: "postgres://localhost:5432/shop" },
	{ name: "a masked key", text: "OPENAI_API_KEY=sk-...xxxx (masked)" },
	{ name: "a prefix named", text: "GitHub tokens start with ghp_ and fine-grained ones with github_pat_" },
	{ name: "a header template", text: 'curl -H "Authorization: Bearer $TOKEN" https://api.acme.com' },
	{
		name: "a public key block",
		text: `-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE${b64(52, "pub")}\n-----END PUBLIC KEY-----`,
	},
	{ name: "an ssh public key", text: `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${b64(43, "edpub")} dev@laptop` },
	{ name: "working directories", text: "PWD=/home/dev/projects/webshop\nOLDPWD=/home/dev" },
	{ name: "a token limit", text: "MAX_TOKENS=4096 TOKEN_BUDGET=200000 node bench.mjs" },
	{ name: "a command substitution", text: "export GITHUB_TOKEN=$(gh auth token)" },
	{ name: "a model id", text: "model: claude-sonnet-4-5-20250929, temperature 0.2" },
	{ name: "a file name", text: "see config/secrets.example.yml and tokenizer.json" },
	{ name: "a password rule", text: "passwords must be 12+ characters; password_min_length: 12" },
];
