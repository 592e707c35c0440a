import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { column, fitColumns, shortPath } from "../../src/cli/columns.js";
import { pricesLabel } from "../../src/core/index.js";

describe("columns by display width", () => {
	it("pads and cuts CJK and emoji by the columns they take, at a word's end, with an ellipsis", () => {
		expect(stringWidth(column("批量导入死锁排查", 20))).toBe(20);
		expect(stringWidth(column("Storage engine decision", 20))).toBe(20);
		expect(column("批量导入死锁排查", 20)).toBe("批量导入死锁排查    ");
		expect(fitColumns("批量导入死锁排查", 9)).toBe("批量导入…");
		expect(fitColumns("The reservations tests fail with SQLITE_BUSY", 30)).toBe("The reservations tests fail…");
		expect(stringWidth(fitColumns("🚀🚀🚀🚀🚀", 6))).toBeLessThanOrEqual(6);
		expect(fitColumns("short", 10)).toBe("short");
	});

	it("shortens a long folder to ~ and its last parts", () => {
		expect(shortPath("/home/me/code/app", 40, "/home/me")).toBe("~/code/app");
		expect(shortPath("/srv/very/long/path/of/folders/deep/inside/project-name", 30, "/home/me")).toBe("…/deep/inside/project-name");
		expect(shortPath(undefined)).toBe("—");
	});

	it("names the price list by the agent's release, not an npm package", () => {
		expect(pricesLabel("@earendil-works/pi-ai 1.6.0")).toBe("Pi 1.6.0's model list");
	});
});
