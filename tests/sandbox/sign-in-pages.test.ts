import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../sandbox/index";
import { startTestSandbox } from "./support/sandbox";
import { authorizeInBrowser, buildAuthorizeUrl, createPkcePair } from "./support/oauth";
import { CookieJar } from "./support/cookie-jar";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(async () => {
  await sandbox?.stop();
});

/**
 * Opens the authorize URL and returns the sign-in page's address, HTML and cookies. `acceptLanguage` is the
 * browser's header on every request; `extraParams` go on the authorize URL (e.g. ui_locales).
 */
async function openSignIn(options: { clientId?: string; acceptLanguage?: string; extraParams?: Record<string, string> } = {}) {
  const jar = new CookieJar();
  const language: Record<string, string> = options.acceptLanguage ? { "accept-language": options.acceptLanguage } : {};
  const authorize = buildAuthorizeUrl(sandbox, {
    clientId: options.clientId ?? "partner-app",
    scope: "openid email service.api offline_access",
    codeChallenge: createPkcePair().challenge,
    extraParams: options.extraParams,
  });
  const redirect = await fetch(authorize, { redirect: "manual", headers: language });
  jar.store(redirect);
  const pageUrl = new URL(redirect.headers.get("location") ?? "", authorize);
  const page = await fetch(pageUrl, { headers: { cookie: jar.header(), ...language } });
  return { pageUrl, html: await page.text(), status: page.status, jar, language };
}

/** Signs in as Alice on the page `openSignIn` gave and returns the consent page's HTML. */
async function consentPage({ pageUrl, jar, language }: Awaited<ReturnType<typeof openSignIn>>) {
  const login = await fetch(new URL(`${pageUrl.pathname}/login`, pageUrl), {
    method: "POST",
    redirect: "manual",
    headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded", ...language },
    body: new URLSearchParams({ email: "alice@example.com", password: "alice-password" }).toString(),
  });
  expect(login.status).toBe(303);
  jar.store(login);
  const resume = await fetch(new URL(login.headers.get("location") ?? "", pageUrl), { redirect: "manual", headers: { cookie: jar.header(), ...language } });
  jar.store(resume);
  const consent = await fetch(new URL(resume.headers.get("location") ?? "", pageUrl), { headers: { cookie: jar.header(), ...language } });
  return consent.text();
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

  it("names the app by its display name (client_name), never its client id", async () => {
    for (const clientId of ["partner-app", "dev-client"]) {
      const { html } = await openSignIn({ clientId });
      expect(html).toContain("<p>to continue to <strong>eSign Partner</strong></p>");
      expect(html).not.toContain(clientId);
    }
  });

  it("shows the consent page with the requested scopes and Allow / Deny after signing in", async () => {
    const html = await consentPage(await openSignIn());
    expect(html).toContain("Signed in as <strong>Alice Example</strong>. <strong>eSign Partner</strong> asks to:");
    expect(html).not.toContain("partner-app");
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

describe("the pages in the browser's language", () => {
  it("signs in in Japanese for a Japanese browser, with the same field ids and the app's name", async () => {
    const { html, status } = await openSignIn({ acceptLanguage: "ja-JP,ja;q=0.9,en;q=0.8" });
    expect(status).toBe(200);
    expect(html).toContain('<html lang="ja">');
    expect(html).toContain("<title>ログイン · 電子署名サンドボックス</title>");
    expect(html).toContain("<p><strong>eSign Partner</strong> を利用するにはログインしてください</p>");
    expect(html).toMatch(/<label for="email">メールアドレス<\/label>\s*<input id="email" name="email" type="email" autocomplete="username"/);
    expect(html).toMatch(/<label for="password">パスワード<\/label>\s*<input id="password" name="password" type="password"/);
    expect(html).toMatch(/<button type="submit"[^>]*>ログイン<\/button>/);
  });

  it("takes ui_locales before Accept-Language, both ways", async () => {
    expect((await openSignIn({ acceptLanguage: "en-US", extraParams: { ui_locales: "ja" } })).html).toContain('<html lang="ja">');
    expect((await openSignIn({ acceptLanguage: "ja", extraParams: { ui_locales: "fr en-GB" } })).html).toContain('<html lang="en">');
    // A language it does not speak falls through to the next choice, then to English.
    expect((await openSignIn({ acceptLanguage: "fr-FR, ja;q=0.5", extraParams: { ui_locales: "de" } })).html).toContain('<html lang="ja">');
    expect((await openSignIn({ acceptLanguage: "fr-FR" })).html).toContain('<html lang="en">');
  });

  it("words a wrong password, the consent page and an expired link in Japanese", async () => {
    const opened = await openSignIn({ extraParams: { ui_locales: "ja" } });
    const wrong = await fetch(new URL(`${opened.pageUrl.pathname}/login`, opened.pageUrl), {
      method: "POST",
      headers: { cookie: opened.jar.header(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: "alice@example.com", password: "wrong" }).toString(),
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toMatch(/role="alert"[^>]*>メールアドレスまたはパスワードが正しくありません。/);

    const consent = await consentPage(opened);
    expect(consent).toContain("<strong>Alice Example</strong> としてログインしています。<strong>eSign Partner</strong> が次の許可を求めています。");
    expect(consent).toContain("メールアドレスの参照 <code>email</code>");
    expect(consent).toMatch(/<button[^>]*>許可<\/button>/);
    expect(consent).toMatch(/<button[^>]*>拒否<\/button>/);

    const expired = await fetch(`${sandbox.authUrl}/interaction/unknown-uid`, { headers: { "accept-language": "ja" } });
    expect(expired.status).toBe(400);
    expect(await expired.text()).toContain("このログイン用リンクは有効期限が切れています。");
  });

  it("asks about signing out in Japanese (ui_locales), naming the app", async () => {
    // Signed in at the service (its session cookie in the jar): only then does it ask.
    const jar = new CookieJar();
    const authorize = buildAuthorizeUrl(sandbox, { clientId: "partner-app", scope: "openid email", codeChallenge: createPkcePair().challenge });
    await authorizeInBrowser(sandbox, authorize, { clientId: "partner-app", scope: "openid email" }, jar);
    const url = new URL(`${sandbox.authUrl}/connect/endsession`);
    url.searchParams.set("client_id", "partner-app");
    url.searchParams.set("ui_locales", "ja");
    const html = await (await fetch(url, { headers: { cookie: jar.header() } })).text();
    expect(html).toContain('<html lang="ja">');
    expect(html).toContain("<h1>電子署名サービスからもログアウトしますか？</h1>");
    expect(html).toContain("<strong>eSign Partner</strong> からはログアウトしました。");
    expect(html).toMatch(/<button[^>]*name="logout" value="yes"[^>]*>はい、ログアウトする<\/button>/);
    expect(html).not.toContain("partner-app</strong>");
  });

  it("shows the library's errors in Japanese, its English description kept below, marked as English", async () => {
    const url = new URL(`${sandbox.authUrl}/connect/authorize`);
    url.searchParams.set("client_id", "no-such-client");
    const html = await (await fetch(url, { headers: { "accept-language": "ja" } })).text();
    expect(html).toContain('<html lang="ja">');
    expect(html).toMatch(/role="alert">リクエストを処理できませんでした。<\/p>\n<p lang="en">[^<]+<\/p>/);
    expect(html).toContain("<code>invalid_client</code>");
  });
});
