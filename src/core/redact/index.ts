export {
	findSecrets,
	loadRedaction,
	type RedactionTally,
	redactedReply,
	redactionMarker,
	redactsByDefault,
	redactText,
	redactValue,
	type SecretFinding,
} from "./redact.js";
