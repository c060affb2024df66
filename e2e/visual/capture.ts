import type { Page } from "@playwright/test";
import { expect } from "../fixtures/test";

const widths = { desktop: { width: 1280, height: 800 }, mobile: { width: 390, height: 844 } } as const;

/**
 * The page as it stands, at desktop and phone width: saved as screenshots/{name}-{desktop,mobile}.png for a person
 * to look at (npm run screenshots copies them to docs/screenshots/), and checked for what breaks on small screens
 * (content wider than the viewport). Leaves the page at desktop width.
 */
export async function capture(page: Page, name: string) {
  for (const [label, size] of Object.entries(widths)) {
    await page.setViewportSize(size);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} is wider than a ${size.width}px viewport`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `screenshots/${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize(widths.desktop);
}
