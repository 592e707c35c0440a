/** What the sessions used and cost: prices for tokens no session priced, and the sums the reports and the dashboard read. */

export { type ActiveBlock, BLOCK_HOURS, type BlockReport, type BlockRequest, type UsageBlock, usageBlocks } from "./blocks.js";
export { type Dashboard, type DashboardRequest, usageDashboard } from "./dashboard.js";
export { PRICE_SOURCE, pricesLabel } from "./prices.js";
export {
	USAGE_GROUPS,
	type UsageGroup,
	type UsageReport,
	type UsageRequest,
	type UsageRow,
	type UsageTotals,
	usageReport,
	zoneOffset,
} from "./report.js";
export type { SessionCost, SessionUsage, ToolCount } from "./session-usage.js";
export { type StatusFigures, statusFigures } from "./status.js";
