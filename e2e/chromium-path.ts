import { existsSync } from "node:fs";
import { chromium } from "@playwright/test";

/**
 * Playwright's own Chromium where it was downloaded; Debian's otherwise (machines that cannot download
 * browsers). Undefined means "Playwright's default".
 */
export const chromiumExecutablePath: string | undefined = (() => {
  try {
    const bundled = chromium.executablePath();
    if (existsSync(bundled)) return undefined;
  } catch {
    // no bundled browser registered
  }
  return "/usr/bin/chromium";
})();

/** Flags for a headless Chromium in a container or CI machine, without background traffic. */
export const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
