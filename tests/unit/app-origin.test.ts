import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { appOrigin, servesHttps } from "@/lib/app-origin";
import { sessionCookieName } from "@/lib/auth/session-cookie";
import { assertSameOrigin, isSameOriginNavigation } from "@/lib/security/same-origin";

const behindTls = () =>
  new NextRequest("http://127.0.0.1:3000/account", { headers: { host: "127.0.0.1:3000", "x-forwarded-proto": "https", "x-forwarded-host": "partner.example.com" } });

describe("appOrigin", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("is AUTH_URL's origin whenever AUTH_URL is set, whatever the request says", () => {
    vi.stubEnv("AUTH_URL", "https://partner.example.com/base/");
    expect(appOrigin(new NextRequest("http://10.0.0.5:3000/x", { headers: { host: "10.0.0.5:3000" } }))).toBe("https://partner.example.com");
    expect(servesHttps({ headers: new Headers() })).toBe(true);
  });

  it("without AUTH_URL, reads the forwarded host and scheme as Auth.js does", () => {
    vi.stubEnv("AUTH_URL", undefined);
    expect(appOrigin(behindTls())).toBe("https://partner.example.com");
    expect(appOrigin(new NextRequest("http://localhost:3000/x"))).toBe("http://localhost:3000");
    expect(appOrigin({ headers: new Headers({ host: "localhost:3001" }) })).toBe("http://localhost:3001");
  });

  it("takes the first of a forwarded list, in any case, and ignores a scheme that is not http or https", () => {
    vi.stubEnv("AUTH_URL", undefined);
    const withProto = (proto: string) => new NextRequest("http://localhost:3000/x", { headers: { "x-forwarded-proto": proto } });
    expect(appOrigin(withProto("HTTPS"))).toBe("https://localhost:3000");
    expect(appOrigin(withProto("https, http"))).toBe("https://localhost:3000");
    expect(appOrigin(withProto("ftp"))).toBe("http://localhost:3000");
    expect(appOrigin(withProto("httpsfoo"))).toBe("http://localhost:3000");
  });

  it("behind TLS without AUTH_URL, the session cookie and the marker cookies agree on https", () => {
    vi.stubEnv("AUTH_URL", undefined);
    const req = behindTls();
    expect(sessionCookieName(req)).toBe("__Secure-authjs.session-token");
    expect(servesHttps(req)).toBe(true);
    expect(sessionCookieName(new NextRequest("http://localhost:3000/x"))).toBe("authjs.session-token");
  });

  it("is the origin the same-origin check compares with", () => {
    vi.stubEnv("AUTH_URL", undefined);
    const post = (origin: string) =>
      new NextRequest("http://127.0.0.1:3000/api/documents", { method: "POST", headers: { ...Object.fromEntries(behindTls().headers), origin } });
    expect(() => assertSameOrigin(post("https://partner.example.com"))).not.toThrow();
    expect(() => assertSameOrigin(post("https://evil.example"))).toThrow(expect.objectContaining({ code: "CROSS_SITE_REQUEST" }));
  });
});

describe("isSameOriginNavigation", () => {
  afterEach(() => vi.unstubAllEnvs());
  const get = (headers: Record<string, string>) => new NextRequest("http://localhost:3000/auth/restart", { headers });

  it("trusts Sec-Fetch-Site when the browser sends it: only same-origin counts", () => {
    vi.stubEnv("AUTH_URL", "http://localhost:3000");
    expect(isSameOriginNavigation(get({ "sec-fetch-site": "same-origin" }))).toBe(true);
    for (const site of ["same-site", "cross-site", "none"]) {
      expect(isSameOriginNavigation(get({ "sec-fetch-site": site, referer: "http://localhost:3000/x" })), site).toBe(false);
    }
  });

  it("falls back to Origin, then Referer, compared with the app's origin", () => {
    vi.stubEnv("AUTH_URL", "http://localhost:3000");
    expect(isSameOriginNavigation(get({ origin: "http://localhost:3000" }))).toBe(true);
    expect(isSameOriginNavigation(get({ referer: "http://localhost:3000/api/auth/callback/esign" }))).toBe(true);
    expect(isSameOriginNavigation(get({ referer: "https://elsewhere.example/" }))).toBe(false);
    expect(isSameOriginNavigation(get({}))).toBe(false);
  });
});
