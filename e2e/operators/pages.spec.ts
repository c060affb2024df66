import { test, expect } from "../fixtures/test";
import { expectNoAxeViolations } from "../fixtures/axe";
import { signIn, users } from "../fixtures/users";
import { capture } from "../visual/capture";
import { stageFile, writeRandomFile } from "../documents/support";
import { LANGUAGES, createDocumentWithoutFile, operatorBrowser, type Language } from "./support";

/**
 * The operator pages as people see them, in English and Japanese, at desktop and phone width: saved as
 * screenshots/operator-* and ja-operator-* (`npm run screenshots` copies them to docs/screenshots/), each checked for
 * content wider than the screen (capture) and by axe-core's WCAG 2.1 A/AA rules. The data is the sandbox's fictional
 * users and made-up document names.
 */

test.use({ reuseSignIn: true });
test.describe.configure({ mode: "parallel" });

/** A made-up Japanese document name, so that the search shows a substring match inside Japanese text. */
const JAPANESE_NAME = "売買契約書（見本）.pdf";

for (const language of Object.keys(LANGUAGES) as Language[]) {
  const { catalog } = LANGUAGES[language];
  const op = catalog.operator;
  const name = (page: string) => `${language === "ja" ? "ja-" : ""}operator-${page}`;

  test(`${language}: the overview, stuck list, search, a user's and a document's page and the access log, at desktop and phone width, meet WCAG 2.1 AA rules`, async ({ page, newBrowser }) => {
    // Two sign-ins, an upload and 24 page loads with axe and a screenshot each: 1.4 min pinned to one core.
    test.setTimeout(240_000);
    await signIn(page, users.alice);
    // One upload that lands, so the period has an upload time to show.
    await stageFile(page, await writeRandomFile(test.info().outputPath("operator-overview-sample.pdf"), 256 * 1024));
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(page.getByTestId("upload-success")).toBeVisible();
    const operator = await operatorBrowser(newBrowser, language);
    // One Japanese-named document on record (the database keeps earlier runs' records: made once).
    await operator.goto(`/operator/search?q=${encodeURIComponent("契約")}`);
    if ((await operator.getByTestId("operator-document-row").filter({ hasText: JAPANESE_NAME }).count()) === 0) {
      await createDocumentWithoutFile(page, JAPANESE_NAME);
    }

    await operator.goto("/operator?range=7d");
    await expect(operator.getByTestId("operator-figures")).toBeVisible();
    await expect(operator.getByTestId("operator-day-chart").locator("[data-day]")).toHaveCount(7);
    await expectNoAxeViolations(operator, "overview");
    await capture(operator, name("overview"));
    // The figures as a table, opened by keyboard.
    await operator.getByText(op.chart.asTable).focus();
    await operator.keyboard.press("Enter");
    await expect(operator.getByTestId("operator-day-table").locator("tbody tr")).toHaveCount(7);
    await expectNoAxeViolations(operator, "overview with the table open");

    // A custom period: no date fields until it is chosen, then they start from the days on show.
    await expect(operator.getByLabel(op.overview.from)).toHaveCount(0);
    const customLink = operator.getByRole("link", { name: op.overview.customLabel });
    await customLink.focus();
    await operator.keyboard.press("Enter");
    await expect(customLink).toHaveAttribute("aria-current", "page");
    // The link keeps its element across the client-side navigation: let its colour transition end before axe reads it.
    await customLink.evaluate((link) => Promise.all(link.getAnimations().map((animation) => animation.finished)));
    const lastDay = await operator.getByLabel(op.overview.to).inputValue();
    expect(lastDay).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const firstDay = new Date(`${lastDay}T00:00:00Z`);
    firstDay.setUTCDate(firstDay.getUTCDate() - 6);
    await expect(operator.getByLabel(op.overview.from)).toHaveValue(firstDay.toISOString().slice(0, 10));
    await expect(operator.getByTestId("operator-day-chart").locator("[data-day]")).toHaveCount(7);
    await expectNoAxeViolations(operator, "overview, custom period");
    await capture(operator, name("overview-custom"));

    // A bad custom period: named, and what was typed kept.
    await operator.goto("/operator?range=custom&from=2026-11-30&to=2026-11-01");
    await expect(operator.getByTestId("operator-period-error")).toContainText(op.overview.periodErrors.order);
    await expect(operator.getByLabel(op.overview.from)).toHaveValue("2026-11-30");
    await expect(operator.getByLabel(op.overview.to)).toHaveAttribute("aria-invalid", "true");
    await expectNoAxeViolations(operator, "overview, period error");

    // Two hours on (the sandbox app's `now`): what is stuck then, so the list has rows to show.
    await operator.goto(`/operator/stuck?now=${encodeURIComponent(new Date(Date.now() + 2 * 3_600_000).toISOString())}`);
    await expect(operator.getByTestId("operator-stuck-row").first()).toBeVisible();
    await expectNoAxeViolations(operator, "stuck list");
    await capture(operator, name("stuck"));

    await operator.goto(`/operator/search?q=${encodeURIComponent("契約")}`);
    await expect(operator.getByTestId("operator-document-row").filter({ hasText: JAPANESE_NAME }).first()).toBeVisible();
    await expectNoAxeViolations(operator, "search");
    await capture(operator, name("search"));

    await operator.goto(`/operator/search?q=${encodeURIComponent(users.alice.email)}`);
    await operator.getByTestId("operator-user-row").getByRole("link", { name: users.alice.email, exact: true }).click();
    await expect(operator.getByTestId("operator-user-facts")).toBeVisible();
    await expectNoAxeViolations(operator, "a user's page");
    await capture(operator, name("user"));

    await operator.getByTestId("operator-document-row").first().getByRole("link").first().click();
    await expect(operator.getByTestId("audit-trail")).toBeVisible();
    await operator.getByTestId("technical-details").first().locator("summary").click();
    await expectNoAxeViolations(operator, "a document's page, technical details open");
    await capture(operator, name("document"));

    await operator.goto("/operator/access");
    await expect(operator.getByTestId("operator-access-entry").first()).toBeVisible();
    await expectNoAxeViolations(operator, "the access log");
    await capture(operator, name("access"));
  });
}
