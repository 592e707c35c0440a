/**
 * What secretlint's recommended rules do not catch, and lookback must: a password in any URL (theirs know
 * http(s), ftp and three databases' schemes), assignments in `.env` files and in quoted config (`"password": "…"`),
 * a private key block of any length (theirs wants a whole key's base64 body), and three token shapes of no one
 * provider that they have no rule for: Google API keys, JSON Web Tokens and `Bearer` credentials. Each is tested
 * in test/core/redact.test.ts.
 */

/** A secret found: where it is and the kind its marker names. */
export interface OwnFinding {
	start: number;
	end: number;
	kind: string;
}

/** One rule: a global pattern, and the secret in a match (undefined: the match holds none after all). */
interface OwnRule {
	pattern: RegExp;
	secret(match: RegExpExecArray): OwnFinding | undefined;
}

/** Names that say their value is a secret, matched at the end of the name (`DB_PASSWORD`, `stripeApiKey`). */
const SECRET_NAME =
	/(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|auth[_-]?key|credentials?|client[_-]?secret|signing[_-]?key|encryption[_-]?key|session[_-]?key|dsn)$/i;

/** Names that end like a secret's and are not: the shell's working directories, `bypass`, `compass`. */
const NOT_SECRET_NAME = /^(?:OLD)?PWD$|(?:by|com|over)pass$/i;

/** A value that only stands for one: empty, a variable, a `<placeholder>`, a type name, a marker already. */
const PLACEHOLDER =
	/^\s*$|^\$[{(]?[A-Za-z_]|^<|^\[REDACTED:|^(?:string|number|boolean|undefined|null|none|true|false|changeme|x+|\*+|\.+)$|^(?:your|my|insert|enter|replace)[_-]|_here$|\.\.\.|…|x{4,}$/i;

/**
 * Documented example credentials, left alone on purpose (README says so): AWS's example key pair from its own
 * documentation. secretlint's AWS rule allows the same.
 */
const EXAMPLES = /EXAMPLE/;

/** Group `group` of a match as a finding of `kind`. */
function groupAt(m: RegExpExecArray, group: number, kind: string): OwnFinding | undefined {
	const value = m[group];
	if (!value) return undefined;
	const start = m.index + (group === 0 ? 0 : m[0].lastIndexOf(value));
	return { start, end: start + value.length, kind };
}

/** An unquoted value that is code, not a literal: a call, an index, a member (`self.token`, `os.environ["K"]`). */
const CODE = /[()[\]{}]|^(?:[A-Za-z_$][\w$]*\.)+[A-Za-z_$][\w$]*$/;

/** The value of `name = value` when the name says it is a secret and the value is not a placeholder (or, unquoted, code). */
function assigned(
	m: RegExpExecArray,
	name: string,
	value: string | undefined,
	kinds: { password: string; other: string },
	quoted = true,
): OwnFinding | undefined {
	if (value === undefined || !SECRET_NAME.test(name) || NOT_SECRET_NAME.test(name) || PLACEHOLDER.test(value) || EXAMPLES.test(value))
		return undefined;
	if (!quoted && CODE.test(value)) return undefined;
	const start = m.index + m[0].lastIndexOf(value);
	return { start, end: start + value.length, kind: /pass|pwd/i.test(name) ? kinds.password : kinds.other };
}

const OWN_RULES: readonly OwnRule[] = [
	{
		// scheme://user:password@host, any scheme: only the password goes.
		pattern: /\b[a-z][a-z0-9+.-]{1,30}:\/\/[^\s:/?#@"'<>]*:([^\s/?#@"'<>]+)@[^\s/?#@"'<>]/gi,
		secret: (m) => groupAt(m, 1, "url-password"),
	},
	{
		// A .env line: NAME=value, perhaps `export`ed or quoted. Quotes may come escaped (\"…\"): the line may sit
		// inside a JSON string (a tool call's arguments). Unquoted, the value ends at a space, as a shell reads it:
		// `PGPASSWORD=… pg_dump …` keeps its command.
		pattern: /^[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_.-]*)[ \t]*=[ \t]*(?:(\\?["'])([^"'\n\\]*)\2|([^\s'"\\]+))/gm,
		secret: (m) => assigned(m, m[1], m[3] ?? m[4], { password: "env-password", other: "env-secret" }, m[4] === undefined),
	},
	{
		// The same inside a shell line: `SMTP_PASSWORD=… ./send`, `env API_TOKEN=… npm start`, a command in a tool
		// call's JSON (`{"command":"DD_API_KEY=… ./install.sh"}`), `--from-literal=password=…`, to the next space
		// (not a keyword argument, `f(token=value)`, nor a value of fewer than 6 characters there).
		pattern: /(?<=^|[\s;&|=("'`])([A-Za-z_][A-Za-z0-9_.-]*)=(?:(\\?["'])([^"'\n\\]*)\2|([^\s'"\\]{6,}))/gm,
		secret: (m) => assigned(m, m[1], m[3] ?? m[4], { password: "env-password", other: "env-secret" }, m[4] === undefined),
	},
	{
		// "password": "…", password: '…', apiKey = "…" in JSON, YAML, TOML and code: the quoted value of a secret's name.
		pattern: /\\?["']?([A-Za-z_][A-Za-z0-9_.-]*)\\?["']?[ \t]*(?::|=|:=|=>)[ \t]*(\\?["'])([^"'\n\\]{6,})\2/g,
		secret: (m) => assigned(m, m[1], m[3], { password: "password", other: "secret" }),
	},
	{
		// To its END line; a block cut short (a snippet, `head` of a key file) as far as its base64 goes, its lines
		// perhaps folded into spaces (a search snippet).
		pattern:
			/-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]{0,20000}?-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|(?:(?:[ \t\r\n:,-]|\\n)*[A-Za-z0-9+/=]{8,})*)/g,
		secret: (m) => groupAt(m, 0, "private-key"),
	},
	{ pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g, secret: (m) => groupAt(m, 0, "google-api-key") },
	{ pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, secret: (m) => groupAt(m, 0, "jwt") },
	{ pattern: /\bBearer[ \t]+([A-Za-z0-9._~+/-]{16,}=*)/g, secret: (m) => groupAt(m, 1, "bearer-token") },
];

/** What these rules find in `text`. */
export function ownFindings(text: string): OwnFinding[] {
	const found: OwnFinding[] = [];
	for (const rule of OWN_RULES) {
		rule.pattern.lastIndex = 0;
		for (let m = rule.pattern.exec(text); m; m = rule.pattern.exec(text)) {
			if (m[0].length === 0) rule.pattern.lastIndex++;
			const secret = rule.secret(m);
			if (secret) found.push(secret);
		}
	}
	return found;
}
