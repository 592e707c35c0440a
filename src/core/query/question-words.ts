/** The words of a question that say nothing about its subject (`why`, `did`, `the`): left out of its subject words, never expanded. */

const QUESTION_WORDS = new Set(
	"a an and are about as at be by can could did do does for from had has have how i in is it its me my of on or our should so that the their them they this to us was we were what when where which who why will with would you your".split(
		" ",
	),
);

/** Whether a word (any case) is one of a question's words. */
export function isQuestionWord(word: string): boolean {
	return QUESTION_WORDS.has(word.toLowerCase());
}
