/**
 * The words around a question: what people and agents add to ask for a session (`can you find`, `the session
 * where`, `I think`, `not sure when it was`, `which run`) rather than what the session was about. A question is
 * searched without them. English phrases are matched word by word with their forms (the stemmer's language),
 * Chinese, Japanese and Korean ones inside a run of characters (the CJK handling's scripts).
 */

/** One place of a phrase: its words (an alternative of several words is a sequence), and whether it may be absent. */
interface Slot {
	words: string[][];
	optional: boolean;
}

/** `"can|could you please? find|search"`: slots split by spaces, alternatives by `|`, `_` joining words of one alternative, `?` optional. */
function phrase(pattern: string): Slot[] {
	return pattern.split(" ").map((slot) => {
		const optional = slot.endsWith("?");
		const body = optional ? slot.slice(0, -1) : slot;
		return { optional, words: body.split("|").map((alt) => alt.split("_")) };
	});
}

const DETERMINER = "the|a|an|that|this|which|what|some|any|my|our|one|of";
const SESSION = "session|sessions|conversation|conversations|chat|chats|thread|threads|transcript|transcripts|run|runs";
const ASKING =
	"find|finding|search|searching|look|looking|locate|show|showing|get|pull|dig|fetch|give|tell|remind|help|check|bring|list|point";
const THINKING = "think|thought|believe|guess|suppose|recall|remember|remembered|reckon|know";
const SESSION_WORDS = new Set(SESSION.split("|"));
const WHEN = "when|where|which|what|how|if|whether|exactly|why|who";
const SUBJECT = "it|that|this|we|i|you|they|there";
const BE = "was|were|is|did|happened|went|had";
const AGO = "while|moment|day|days|week|weeks|month|months|year|years|time";

/**
 * English phrases around a question. The first place of each phrase is required and at least two words must
 * match (a phrase of one word is listed in SINGLE), so that a word alone (`find`, `not`, `run`) is still searched.
 */
const PHRASES: Slot[][] = [
	`can|could|would|will|do|did|please|pls you please? ${ASKING}? up|for|out|me? me|us? the|a|an?`,
	`${ASKING} me|us? up|for|out? me|us? ${DETERMINER}? ${SESSION}|one|time ${WHEN}|that|about|with|on|of|in?`,
	`${ASKING}|search_for|look_for|look_up|pull_up|dig_up|show_me|find_me|give_me|help_me_find ${DETERMINER}? ${SESSION} ${WHEN}|that|about|with|on|of|in?`,
	`in|from|during|on|of? ${DETERMINER} ${SESSION} ${WHEN}|that|about|with|we|i|in|where|on|of?`,
	`the|that|this one|time ${WHEN}|that|with|about`,
	`${SESSION} where|when|in_which|that|about|with|we|i|you|on|of|from`,
	`i|we ${THINKING} that|it?`,
	`i'm|im|i_am pretty|fairly|quite|almost? sure that|it?`,
	`not|unsure|never sure|quite|remember|sure|certain ${WHEN}? ${SUBJECT}? ${BE}?`,
	`i|we? don't|dont|do_not|can't|cant|cannot|can_not|didn't|doesn't remember|recall|know ${WHEN}? ${SUBJECT}? ${BE}?`,
	`i|we forget|forgot ${WHEN}? ${SUBJECT}? ${BE}?`,
	`do|did|can|you you? remember|recall`,
	`a|some|few|a_few|a_couple_of|couple_of|several ${AGO} ago|back|earlier`,
	`${AGO} ago|back`,
	`last|this|past|the_other week|month|night|year|time|day|weekend|friday|monday`,
	`or|and? something|stuff|so like|similar|else|like_that?`,
	`kind|sort of`,
	`we|i|you talked|talk|talking|spoke|discussed|discuss|discussing|mentioned|mention|chatted|worked|working about|on?`,
	`talked|discussed|mentioned about`,
	`is|was|were there a|an|any|some?`,
	`i'm|im|i_am|we're|were looking|searching|trying for|to? find?`,
	`looking|searching for`,
	`any|some idea|ideas`,
	`help me find|remember?`,
	`had|has to do with`,
].map(phrase);

/** Words that are never about a session, wherever they stand in a question. */
const SINGLE = new Set(
	"again maybe perhaps probably possibly somewhere somehow sometime basically actually exactly please pls thanks thank hey hi hello ok okay um uh hmm yesterday earlier recently lately previously anyway"
		.split(" ")
		.filter(Boolean),
);

/** Whether a word is one the words around a question are made of (`find`, `session`, `again`): such a word of a session is found in keywords, not in a question. */
export function mayBeFiller(word: string): boolean {
	const bare = bareWord(word);
	return (
		SINGLE.has(bare) || OPENING.has(bare) || PHRASES.some((slots) => slots.some((slot) => slot.words.some((alt) => alt.includes(bare))))
	);
}

/** Words a question is asked in, beginning a query: taken as the asking when more words follow. */
const OPENING = new Set("find search show locate lookup recall".split(" "));

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * Chinese, Japanese and Korean phrases around a question, matched inside a run: those that make a text a question
 * (asking, remembering, a question word or particle), and those that are filler only in a question (`会话`,
 * `最近`: in `会话管理` they are the subject).
 */
const CJK_ASKING = [
	"帮我找一下",
	"帮我找找",
	"帮我查一下",
	"帮我找",
	"帮我查",
	"帮忙找",
	"找一下",
	"查一下",
	"找找",
	"请帮我",
	"你能",
	"能不能",
	"可以帮我",
	"我记得",
	"不记得",
	"不确定",
	"我觉得",
	"忘了",
	"什么时候",
	"哪个会话",
	"哪次会话",
	"那个会话",
	"的会话",
	"聊天记录",
	"为什么",
	"怎么样",
	"怎么",
	"如何",
	"是什么",
	"在哪里",
	"吗",
	"呢",
	"を探してください",
	"を探して",
	"を見つけてください",
	"を見つけて",
	"探してください",
	"探して",
	"見つけて",
	"教えてください",
	"教えて",
	"のセッション",
	"でしたっけ",
	"だったっけ",
	"だっけ",
	"っけ",
	"覚えていない",
	"覚えてる",
	"覚えて",
	"いつだったか",
	"どこだったか",
	"ですか",
	"ますか",
	"찾아주세요",
	"찾아줘",
	"기억나",
	"언제였지",
	"뭐였지",
];
const CJK_FILLER = [
	"我想",
	"好像是",
	"好像",
	"大概",
	"可能是",
	"会话里",
	"会话中",
	"会话",
	"对话",
	"之前",
	"以前",
	"上次",
	"上周",
	"最近",
	"那次",
	"哪次",
	"的那个",
	"那个",
	"一下",
	"吧",
	"セッション",
	"の会話",
	"について",
	"確か",
	"たぶん",
	"多分",
	"ください",
	"この前",
	"先週",
	"昨日",
	"かな",
	"찾아",
	"세션",
	"대화",
	"혹시",
	"아마",
];
/** Every phrase, longest first (a longer phrase holds shorter ones). */
const CJK_ALL = [...CJK_ASKING, ...CJK_FILLER].sort((a, b) => b.length - a.length);

/** Whether a text holds a CJK phrase that asks: the text is then a question. */
export function asksInCjk(text: string): boolean {
	return CJK.test(text) && CJK_ASKING.some((f) => text.includes(f));
}

/** A word as a question's phrases compare it: lowercase, the typographic apostrophe as `'`, punctuation around it gone. */
export function bareWord(text: string): string {
	return text
		.toLowerCase()
		.replace(/[\u2018\u2019]/g, "'")
		.replace(/^[^\p{L}\p{N}\p{Co}]+|[^\p{L}\p{N}\p{Co}]+$/gu, "");
}

/** Every end (exclusive) of a match of the slots at `at`, each optional slot taken or skipped; two words at least. */
function endsAt(words: string[], at: number, slots: Slot[], from = 0, i = at, out = new Set<number>()): Set<number> {
	if (from === slots.length) {
		if (i - at >= 2) out.add(i);
		return out;
	}
	const slot = slots[from];
	for (const seq of slot.words) if (seq.every((w, k) => words[i + k] === w)) endsAt(words, at, slots, from + 1, i + seq.length, out);
	if (slot.optional) endsAt(words, at, slots, from + 1, i, out);
	return out;
}

/**
 * Which of a question's words are the words around it (true at their index). English only; CJK runs are
 * stripFillerCjk's. `question`: the words are known to be a question, so a verb opening it asks (`find redis retry?`);
 * else `search results` stays a subject.
 */
export function fillerMask(words: string[], question = false): boolean[] {
	const bare = words.map(bareWord);
	const mask = bare.map((w) => SINGLE.has(w));
	// The phrases that cover the most words (`until which run which run`: both `which run`), from the end back.
	const best: { words: number; end: number }[] = Array.from({ length: bare.length + 1 }, () => ({ words: 0, end: -1 }));
	for (let at = bare.length - 1; at >= 0; at--) {
		best[at] = { words: best[at + 1].words, end: -1 };
		for (const slots of PHRASES)
			for (const end of endsAt(bare, at, slots)) {
				const words = end - at + best[end].words;
				if (words > best[at].words) best[at] = { words, end };
			}
	}
	for (let at = 0; at < bare.length; ) {
		const { end } = best[at];
		if (end < 0) {
			at++;
			continue;
		}
		for (let k = at; k < end; k++) mask[k] = true;
		at = end;
	}
	// `find redis retry?`, `please search …`: the verb that opens a question asks for the session (after `can you find`
	// it is the subject: `can you find search results`).
	const first = mask.indexOf(false);
	const opens = bare.slice(0, Math.max(0, first)).every((w) => SINGLE.has(w));
	const subject = bare.some((w, i) => i > first && !mask[i] && w.length >= 3);
	// `… the RabbitMQ session?`: a question ending in what it asks for.
	const last = mask.lastIndexOf(false);
	if (question && last > 0 && SESSION_WORDS.has(bare[last]) && mask.slice(0, last).includes(false)) mask[last] = true;
	if (question && opens && OPENING.has(bare[first]) && subject) mask[first] = true;
	return mask;
}

/** A question's CJK text with the phrases around it taken out (each left as a space), and what was taken: maybe all of it. */
export function stripFillerCjk(text: string): { text: string; leftOut: string[] } {
	if (!CJK.test(text)) return { text, leftOut: [] };
	const leftOut: string[] = [];
	let out = text;
	for (const f of CJK_ALL) {
		if (!out.includes(f)) continue;
		out = out.split(f).join(" ");
		leftOut.push(f);
	}
	return { text: out, leftOut };
}
