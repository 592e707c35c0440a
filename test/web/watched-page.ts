/** A page that records every request it makes outside the served origin: a session's text must cause none. */
import type { Browser, Page } from "playwright-core";

export async function watchedPage(browser: Browser, origin: string): Promise<{ page: Page; foreign: string[] }> {
	const page = await browser.newPage();
	const foreign: string[] = [];
	page.on("request", (r) => {
		if (!r.url().startsWith(origin)) foreign.push(r.url());
	});
	return { page, foreign };
}
