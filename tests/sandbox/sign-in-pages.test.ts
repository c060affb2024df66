import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../sandbox/index";
import { startTestSandbox } from "./support/sandbox";
import { buildAuthorizeUrl, createPkcePair } from "./support/oauth";
import { CookieJar } from "./support/cookie-jar";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(async () => {
  await sandbox?.stop();
});

/** Opens the authorize URL and returns the sign-in page's address, HTML and cookies. */
async function openSignIn() {
  const jar = new CookieJar();
  const authorize = buildAuthorizeUrl(sandbox, {
    clientId: "partner-app",
    scope: "openid email service.api offline_access",
    codeChallenge: createPkcePair().challenge,
  });
  const redirect = await fetch(authorize, { redirect: "manual" });
  jar.store(redirect);
  const pageUrl = new URL(redirect.headers.get("location") ?? "", authorize);
  const page = await fetch(pageUrl, { headers: { cookie: jar.header() } });
  return { pageUrl, html: await page.text(), status: page.status, jar };
}

describe("sign-in page", () => {
  it("renders labelled email and password fields with autocomplete, autofocus and a Sign in button", async () => {
    const { html, status } = await openSignIn();
    expect(status).toBe(200);
    expect(html).toContain('<html lang="en">');
    expect(html).toMatch(/<label for="email">Email<\/label>\s*<input id="email" name="email" type="email" autocomplete="username"[^>]*autofocus/);
    expect(html).toMatch(/<label for="password">Password<\/label>\s*<input id="password" name="password" type="password" autocomplete="current-password"/);
    expect(html).toMatch(/<button type="submit"[^>]*>Sign in<\/button>/);
    expect(html).toContain(":focus-visible");
  });

  it("announces a wrong password with role=alert and keeps the email", async () => {
    const { pageUrl, jar } = await openSignIn();
    const response = await fetch(new URL(`${pageUrl.pathname}/login`, pageUrl), {
      method: "POST",
      headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: "alice@example.com", password: "wrong" }).toString(),
    });
    expect(response.status).toBe(401);
    const html = await response.text();
    expect(html).toMatch(/role="alert"[^>]*>Wrong email or password/);
    expect(html).toContain('value="alice@example.com"');
    expect(html).toMatch(/id="password"[^>]*autofocus/);
  });

  it("escapes what the user typed", async () => {
    const { pageUrl, jar } = await openSignIn();
    const response = await fetch(new URL(`${pageUrl.pathname}/login`, pageUrl), {
      method: "POST",
      headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: '"><script>alert(1)</script>', password: "x" }).toString(),
    });
    const html = await response.text();
    expect(html).not.toContain("<script>");
    expect(html).toContain("&quot;&gt;&lt;script&gt;");
  });

  it("shows the consent page with the requested scopes and Allow / Deny after signing in", async () => {
    const { pageUrl, jar } = await openSignIn();
    const login = await fetch(new URL(`${pageUrl.pathname}/login`, pageUrl), {
      method: "POST",
      redirect: "manual",
      headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: "alice@example.com", password: "alice-password" }).toString(),
    });
    expect(login.status).toBe(303);
    jar.store(login);
    const resume = await fetch(new URL(login.headers.get("location") ?? "", pageUrl), { redirect: "manual", headers: { cookie: jar.header() } });
    jar.store(resume);
    const consent = await fetch(new URL(resume.headers.get("location") ?? "", pageUrl), { headers: { cookie: jar.header() } });
    const html = await consent.text();
    expect(html).toContain("Alice Example");
    for (const scope of ["email", "service.api", "offline_access"]) expect(html).toContain(`<code>${scope}</code>`);
    expect(html).toMatch(/<button[^>]*>Allow<\/button>/);
    expect(html).toMatch(/<button[^>]*>Deny<\/button>/);
  });

  it("answers 400 with a readable page for an unknown interaction", async () => {
    const response = await fetch(`${sandbox.authUrl}/interaction/unknown-uid`);
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/role="alert"/);
  });
});
