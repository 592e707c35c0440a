/** The one error type of lookback: API misuse and operations that cannot proceed. Bad data is reported, not thrown. */

export type LookbackErrorCode =
	| "bad-argument"
	| "bad-query"
	| "engine-missing-feature"
	| "index-corrupt"
	| "index-unusable"
	| "index-refused"
	| "read-only"
	| "index-too-large"
	| "index-busy"
	| "session-not-found"
	| "session-ambiguous"
	| "path-outside-roots"
	| "file-too-large"
	| "entry-not-found"
	| "file-exists"
	| "restore-refused"
	| "redaction-not-loaded"
	| "remote"
	| "credentials"
	| "io";

export class LookbackError extends Error {
	readonly code: LookbackErrorCode;
	constructor(code: LookbackErrorCode, message: string, options?: { cause?: unknown }) {
		super(`lookback: ${message}`, options);
		this.name = "LookbackError";
		this.code = code;
	}
}

/** Message text of any thrown value, for reports and warnings. */
export function errorMessage(error: unknown): string {
	if (error instanceof Error) return error.message;
	return String(error);
}
