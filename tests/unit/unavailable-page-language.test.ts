import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";

let sessionStoreUnavailableResponse: typeof import("@/lib/session/unavailable-response").sessionStoreUnavailableResponse;

beforeAll(async () => {
  process.env.AUTH_SECRET ??= "x".repeat(32);
  process.env.BRAND_SUPPORT ??= "help@acme.example";
  ({ sessionStoreUnavailableResponse } = await import("@/lib/session/unavailable-response"));
});

const page = (headers: Record<string, string>) => new NextRequest("http://localhost:3000/account", { headers });

describe("the We'll-be-right-back page (session store down)", () => {
  it("is in Japanese for a Japanese browser, with lang=ja and the support contact escaped into its link", async () => {
    const res = await sessionStoreUnavailableResponse(page({ "accept-language": "ja-JP,ja;q=0.9" }));
    const html = await res.text();
    expect(res.status).toBe(503);
    expect(html).toContain('<html lang="ja">');
    expect(html).toContain("<h1>まもなく復旧します</h1>");
    expect(html).toContain('長引く場合は <a class="plain" href="mailto:help@acme.example">help@acme.example</a> までお問い合わせください。');
    expect(html).not.toMatch(/We'll be right back|Try again/);
  });

  it("follows the language menu's cookie over the browser, and stays English by default", async () => {
    const chosen = await (await sessionStoreUnavailableResponse(page({ "accept-language": "ja", cookie: "locale=en" }))).text();
    expect(chosen).toContain('<html lang="en">');
    expect(chosen).toContain("<h1>We&#39;ll be right back</h1>");
    const plain = await (await sessionStoreUnavailableResponse(page({}))).text();
    expect(plain).toContain('<html lang="en">');
  });

  it("answers API routes with the JSON error, not the page", async () => {
    const res = await sessionStoreUnavailableResponse(new NextRequest("http://localhost:3000/api/account", { headers: { "accept-language": "ja" } }));
    expect(res.status).toBe(503);
    expect((await res.json()).error.code).toBe("SESSION_STORE_UNAVAILABLE");
  });
});
