/** Words and how they are written: tokens, CJK, stems, snippets, times, and the one-line text every face shows. */

export { parseTimeFilter } from "./time.js";
export { flatten, isSessionPath, shortTime } from "./display.js";
