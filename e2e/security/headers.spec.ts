import { test, expect } from "../fixtures/test";
import { signIn, users } from "../fixtures/users";
import { urls } from "../ports";

test.describe("security headers and cookies", () => {
  test("Next's static scripts carry nosniff but not the document-only headers", async ({ page }) => {
    await page.goto("/");
    const src = await page.locator("script[src]").first().getAttribute("src");
    expect(src).toMatch(/^\/_next\/static\//);
    const headers = (await page.request.get(src!)).headers();
    expect(headers["x-content-type-options"]).toBe("nosniff");
    for (const name of ["x-frame-options", "permissions-policy", "referrer-policy", "cross-origin-opener-policy", "strict-transport-security"]) {
      expect(headers[name], name).toBeUndefined();
    }
  });

  test("pages carry a nonce-based CSP and the standard protective headers", async ({ page }) => {
    const first = await page.goto("/");
    const headers = first!.headers();
    const csp = headers["content-security-policy"] ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("script-src 'self' 'nonce-");
    expect(csp).toContain("'strict-dynamic'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain(`form-action 'self' ${urls.auth}`);
    expect(csp).toContain(`connect-src 'self' ${urls.blob}`);
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["permissions-policy"]).toContain("camera=()");
    expect(headers["strict-transport-security"]).toContain("max-age=");

    // Next put the nonce on its scripts, and every page load gets a new one.
    const scriptNonces = await page.locator("script[src]").evaluateAll((els) => els.map((e) => (e as HTMLScriptElement).nonce));
    expect(scriptNonces.length).toBeGreaterThan(0);
    expect(new Set(scriptNonces)).toEqual(new Set([nonce]));
    const second = await page.reload();
    expect(second!.headers()["content-security-policy"]).not.toContain(`'nonce-${nonce}'`);
  });

  test("the signed-in app runs under the policy without a single violation", async ({ page }) => {
    const violations: string[] = [];
    page.on("console", (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) violations.push(msg.text());
    });
    await signIn(page, users.alice);
    // Client code ran: react-query fetched and rendered the account.
    await expect(page.getByTestId("account-record")).toContainText("alice@example.com");
    expect(violations).toEqual([]);
  });

  test("the session cookie is HttpOnly and SameSite=Lax, invisible to scripts", async ({ page, context }) => {
    await signIn(page, users.alice);
    const session = (await context.cookies()).find((c) => c.name.endsWith("authjs.session-token"));
    expect(session).toBeDefined();
    expect(session!.httpOnly).toBe(true);
    expect(session!.sameSite).toBe("Lax");
    expect(session!.path).toBe("/");
    expect(await page.evaluate(() => document.cookie)).not.toContain("session-token");
  });

  test("a callback URL on another site does not survive sign-in", async ({ page }) => {
    await page.goto("/");
    const form = page.getByRole("main").locator("form").filter({ has: page.getByRole("button", { name: "Sign in with eSign" }) });
    await form.evaluate((el) => {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = "callbackUrl";
      input.value = "https://evil.example/phish";
      el.appendChild(input);
    });
    await page.getByRole("main").getByRole("button", { name: "Sign in with eSign" }).click();
    await page.getByLabel("Email").fill(users.alice.email);
    await page.getByLabel("Password").fill(users.alice.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL(`${urls.app}/account`);
  });
});

test.describe("cross-site requests", () => {
  // Signed in once per worker: these need a signed-in user, nothing about the sign-in (e2e/fixtures/test.ts).
  test.use({ reuseSignIn: true });
  test("a cross-site POST to create a document is refused with 403 and creates nothing", async ({ page, admin }) => {
    await signIn(page, users.alice);
    const before = (await admin.documents()).length;
    const crossSite: Record<string, string>[] = [{ origin: "https://evil.example" }, { "sec-fetch-site": "cross-site" }];
    for (const headers of crossSite) {
      const res = await page.request.post("/api/documents", {
        headers: { ...headers, "content-type": "application/json" },
        data: { docid: null, name: "contract.pdf", doctype: "contract" },
      });
      expect(res.status()).toBe(403);
      expect((await res.json()).error.code).toBe("CROSS_SITE_REQUEST");
    }
    expect((await admin.documents()).length).toBe(before);
  });

  test("an oversized create-document body is refused with 413 before reaching the service", async ({ page, admin }) => {
    await signIn(page, users.alice);
    const before = (await admin.documents()).length;
    const res = await page.request.post("/api/documents", {
      headers: { "content-type": "application/json" },
      data: { docid: null, name: "x".repeat(64 * 1024), doctype: "contract" },
    });
    expect(res.status()).toBe(413);
    expect((await res.json()).error.code).toBe("PAYLOAD_TOO_LARGE");
    expect((await admin.documents()).length).toBe(before);
  });
});
