import { existsSync } from "node:fs";
import { chromium } from "@playwright/test";

const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";

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

/**
 * The browser the e2e tests run in. Playwright's own headless runs use its headless shell; on a machine without
 * Playwright's browsers, Debian's `chromium-headless-shell` (installed by scripts/ensure-system-packages.sh) is that
 * same build of Chromium without the full browser around it: the suite's two specs that are mostly pages took 56
 * instead of 75–83 CPU seconds. A headed run (`--headed`, `--debug`) needs the full browser:
 * `E2E_CHROMIUM=/usr/bin/chromium`.
 */
export const e2eChromiumExecutablePath: string | undefined = (() => {
  if (process.env.E2E_CHROMIUM) return process.env.E2E_CHROMIUM;
  if (chromiumExecutablePath === undefined) return undefined;
  return existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : chromiumExecutablePath;
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
