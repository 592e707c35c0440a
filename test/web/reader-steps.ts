/** Steps through the viewer's reader in a test: finding what it draws of a session (a screenful at a time), following links. */

import type { Page } from "playwright-core";
import { expect } from "vitest";

/**
 * Whether the reader draws `selector` somewhere in the session: its messages are drawn a screenful at a time, so
 * they are scrolled through from the top until it is (and left there).
 */
export async function drawn(page: Page, selector: string): Promise<boolean> {
	await page.evaluate(() => {
		(document.querySelector("#reader .messages") as HTMLElement).scrollTop = 0;
	});
	// Bounded: a list whose rows keep changing height must not keep a test scrolling.
	for (let step = 0; step < 200; step++) {
		if ((await page.locator(selector).count()) > 0) return true;
		const moved = await page.evaluate(() => {
			const list = document.querySelector("#reader .messages") as HTMLElement;
			const before = list.scrollTop;
			list.scrollTop += list.clientHeight / 2;
			return list.scrollTop !== before;
		});
		if (!moved) return (await page.locator(selector).count()) > 0;
		await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
	}
	return false;
}

/**
 * In the reader of `session`: the link to a sub-agent under the tool call's message that spawned it (not only among
 * the session's sub-agents in the header) opens the sub-agent's conversation, which says `says` and links back.
 */
export async function followSubagentAndBack(page: Page, session: string, subagent: string, says: string): Promise<void> {
	const under = `#reader .message .subagent-link[href*="session=${subagent}"]`;
	// Clicked where it is drawn, in the page: a click from outside may find its row gone, the list redrawn meanwhile.
	let clicked = false;
	for (let tries = 0; tries < 3 && !clicked; tries++) {
		expect(await drawn(page, under)).toBe(true);
		clicked = await page.evaluate((selector) => {
			const link = document.querySelector<HTMLAnchorElement>(selector);
			link?.click();
			return link !== null;
		}, under);
	}
	expect(clicked).toBe(true);
	await page.waitForFunction((id) => new URL(location.href).searchParams.get("session") === id, subagent);
	await page.waitForFunction((text) => document.querySelector("#reader .messages")?.textContent?.includes(text), says);
	await page.click("#reader .spawned-by a");
	await page.waitForFunction((id) => new URL(location.href).searchParams.get("session") === id, session);
}
