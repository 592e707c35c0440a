/** Words and how they are written: tokens, CJK, stems, snippets, times, and the one-line text every face shows. */

export { compactCount, flatten, formatUsd, isSessionPath, shortTime } from "./display.js";
export { terminalSafe, terminalSafeDeep, terminalSafeJson, terminalSafeStyled } from "./terminal.js";
export { parseTimeFilter } from "./time.js";
