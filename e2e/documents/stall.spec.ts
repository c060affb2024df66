import type { Page, Request, Route } from "@playwright/test";
import { test, expect } from "../fixtures/test";
import { signIn, users } from "../fixtures/users";
import { urls } from "../ports";
import { MiB, expectStored, stageFile, writeRandomFile } from "./support";

// Signed in once per worker: these tests need a signed-in user, nothing about the sign-in (e2e/fixtures/test.ts).
test.use({ reuseSignIn: true });

// lib/upload/xhr-put.ts STALL_TIMEOUT_MS: a PUT silent this long is cut and retried.
const STALL_MS = 30_000;
// The page's clock is moved on in steps of this much once the PUT is held, instead of waiting 30 s.
const CLOCK_STEP_MS = 5_000;

const comp = (req: Request) => new URL(req.url()).searchParams.get("comp");

/**
 * Holds the first storage PUT that `matches` forever — the connection goes silent, storage never answers —
 * and lets every later one through. Returns how many matching PUTs the page sent.
 */
async function holdFirstPut(page: Page, matches: (req: Request) => boolean): Promise<() => number> {
  const held: Route[] = [];
  let sent = 0;
  await page.route(`${urls.blob}/**`, async (route) => {
    const req = route.request();
    if (req.method() !== "PUT" || !matches(req)) return route.continue();
    if (sent++ === 0) {
      held.push(route);
      return;
    }
    return route.continue();
  });
  return () => sent;
}

/**
 * Once the held PUT has gone out, moves the page's clock (installed before the page loaded) on in steps until
 * the stall guard's real timer fires and the row says it retries: no step may come before the request is held,
 * and a step only fires timers that are due, as 30 s of silence would.
 */
async function runClockUntilRetry(page: Page, sent: () => number) {
  await expect.poll(sent, { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
  const pageNow = () => page.evaluate(() => Date.now());
  const heldAt = await pageNow();
  const retrying = page.getByText(/retrying in 1 sec \(attempt 1 of 3\)/);
  await expect(async () => {
    await page.clock.fastForward(CLOCK_STEP_MS);
    await expect(retrying).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  // The guard waited out the silence on the page's clock, not a moment less.
  expect(await pageNow() - heldAt).toBeGreaterThanOrEqual(STALL_MS);
}

test.describe("stall guard", () => {
  test.beforeEach(async ({ admin }) => {
    await admin.reset();
  });

  test("a single PUT whose connection goes silent is cut by the stall guard and retried", async ({ page, admin }, testInfo) => {
    test.setTimeout(60_000);
    const file = await writeRandomFile(testInfo.outputPath("silent.pdf"), 512 * 1024);
    await signIn(page, users.alice);
    await page.clock.install();
    const sent = await holdFirstPut(page, (req) => comp(req) === null);
    await stageFile(page, file);
    await page.getByRole("button", { name: "Upload", exact: true }).click();

    await runClockUntilRetry(page, sent);
    await expect(page.getByTestId("upload-success")).toBeVisible({ timeout: 30_000 });
    expect(sent()).toBe(2);
    await expectStored((await admin.documents())[0], file);
  });

  test("a Put Block List whose connection goes silent is cut by the stall guard and retried", async ({ page, admin }, testInfo) => {
    test.setTimeout(120_000);
    // Just above the 64 MiB block threshold: nine blocks, then the block list.
    const file = await writeRandomFile(testInfo.outputPath("silent-commit.bin"), 65 * MiB);
    await signIn(page, users.alice);
    await page.clock.install();
    const sent = await holdFirstPut(page, (req) => comp(req) === "blocklist");
    await stageFile(page, file);
    await page.getByRole("button", { name: "Upload", exact: true }).click();

    await runClockUntilRetry(page, sent);
    await expect(page.getByTestId("upload-success")).toBeVisible({ timeout: 30_000 });
    expect(sent()).toBe(2);
    await expectStored((await admin.documents())[0], file);
  });
});
