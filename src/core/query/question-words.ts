/** The words of a question that say nothing about its subject (`why`, `did`, `the`): left out of its subject words, never expanded. */

import { bareWord } from "./filler.js";

const QUESTION_WORDS = new Set(
	[
		"a an and are about am as at be been being by can could did do does for from had has have how i if in into is it its me my",
		"no not of on onto or our should so than that the their them then there these they this those to us was we were what when",
		"where whether which who whom whose why will with would you your he she his her him any some just also ever very too",
		"something anything thing things one ones",
		"it's i'm i've i'd we're we've we'd you're they're that's what's where's when's how's who's there's let's",
		"don't didn't doesn't isn't wasn't weren't aren't can't couldn't wouldn't shouldn't won't haven't hasn't hadn't",
	]
		.join(" ")
		.split(" "),
);

/** Whether a word (any case, punctuation around it ignored) is one of a question's words. */
export function isQuestionWord(word: string): boolean {
	return QUESTION_WORDS.has(bareWord(word));
}
