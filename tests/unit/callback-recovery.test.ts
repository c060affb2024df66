import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import { encode } from "next-auth/jwt";
import { InvalidCheck } from "@auth/core/errors";
import { handleCallback } from "@/lib/auth/callback-recovery";
import { MAX_RESTARTS, restartedEntry, startedEntry } from "@/lib/auth/restart-guard";
import { logAuthError } from "@/lib/auth/auth-error-log";

const SECRET = "unit-test-auth-secret-0123456789abcdef0123456789";
const CALLBACK = "http://localhost:3000/api/auth/callback/esign?code=c&state=s";

function callbackRequest(cookies: Record<string, string>): NextRequest {
  const cookie = Object.entries(cookies).map(([name, value]) => `${name}=${value}`).join("; ");
  return new NextRequest(CALLBACK, { headers: cookie ? { cookie } : {} });
}

/** What Auth.js does: report the error to its logger, then redirect with the given cookies. */
function authJs(location: string, setCookies: string[] = [], error?: Error) {
  return async () => {
    if (error) logAuthError(error);
    const headers = new Headers({ location });
    for (const c of setCookies) headers.append("set-cookie", c);
    return new Response(null, { status: 302, headers });
  };
}

const failedCheck = () => authJs("http://localhost:3000/auth/error?error=Configuration", [], new InvalidCheck("state cookie was missing"));
const setCookieNames = (res: Response) => res.headers.getSetCookie().map((c) => c.split("=")[0]);

beforeAll(() => {
  vi.stubEnv("AUTH_SECRET", SECRET);
});

beforeEach(() => {
  vi.spyOn(console, "warn").mockImplementation(() => {});
  vi.spyOn(console, "error").mockImplementation(() => {});
});

describe("handleCallback", () => {
  it("keeps Auth.js's session cookie on a successful sign-in and clears both sign-in markers", async () => {
    const res = await handleCallback(
      callbackRequest({ "esign.fresh-login": "1", "esign.sign-in-restarted": "1" }),
      authJs("http://localhost:3000/account", ["authjs.session-token=new-session; Path=/; HttpOnly; SameSite=Lax"]),
    );
    expect(res.headers.get("location")).toBe("http://localhost:3000/account");
    const cookies = res.headers.getSetCookie();
    expect(cookies).toContain("authjs.session-token=new-session; Path=/; HttpOnly; SameSite=Lax");
    expect(cookies.filter((c) => /^esign\.(fresh-login|sign-in-restarted)=;.*Max-Age=0/i.test(c))).toHaveLength(2);
  });

  it("leaves a configuration error as Auth.js reported it", async () => {
    const refused = Object.assign(new Error("client refused"), { type: "CallbackRouteError" });
    const res = await handleCallback(
      callbackRequest({ "authjs.state": "x" }),
      authJs("http://localhost:3000/auth/error?error=Configuration", [], refused),
    );
    expect(res.headers.get("location")).toBe("http://localhost:3000/auth/error?error=Configuration");
  });

  it("sends a signed-in person whose callback failed its check to where they were going", async () => {
    const session = await encode({ token: { name: "Alice", sessionHandle: "a-session-handle" }, secret: SECRET, salt: "authjs.session-token" });
    const res = await handleCallback(
      callbackRequest({ "authjs.session-token": session, "authjs.callback-url": encodeURIComponent("http://localhost:3000/documents") }),
      failedCheck(),
    );
    expect(res.headers.get("location")).toBe("http://localhost:3000/documents");
  });

  it("restarts a sign-in in progress once, marking the failed flow by its state", async () => {
    const res = await handleCallback(callbackRequest({ "authjs.state": "other-tab", "authjs.pkce.code_verifier": "v" }), failedCheck());
    expect(res.headers.get("location")).toBe("http://localhost:3000/auth/restart?callbackUrl=%2Faccount");
    expect(setCookieNames(res)).toEqual(["esign.sign-in-restarted"]);
    expect(res.headers.getSetCookie()[0]).toMatch(new RegExp(`^esign\\.sign-in-restarted=${restartedEntry("s")};`));
  });

  it("restarts a second tab's flow while the first tab's restart is under way, keeping both marks", async () => {
    const firstTab = `${restartedEntry("tab-1")}.${startedEntry("tab-1-restarted")}`;
    const res = await handleCallback(callbackRequest({ "authjs.state": "tab-1-restarted", "esign.sign-in-restarted": firstTab }), failedCheck());
    expect(res.headers.get("location")).toBe("http://localhost:3000/auth/restart?callbackUrl=%2Faccount");
    expect(res.headers.getSetCookie()[0]).toMatch(new RegExp(`^esign\\.sign-in-restarted=${firstTab}\\.${restartedEntry("s")};`));
  });

  it("ends on the expired-link message when the flow the latest restart started fails again", async () => {
    const res = await handleCallback(callbackRequest({ "authjs.state": "x", "esign.sign-in-restarted": `${restartedEntry("earlier")}.${startedEntry("s")}` }), failedCheck());
    expect(res.headers.get("location")).toBe("http://localhost:3000/auth/error?error=LinkExpired");
    // Kept: the other flows in it must not restart again either.
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it("ends on the expired-link message once the guard's list is full, whatever the flow", async () => {
    const full = Array.from({ length: MAX_RESTARTS }, (_, i) => `${restartedEntry(`flow-${i}`)}.${startedEntry(`flow-${i}-restarted`)}`).join(".");
    const res = await handleCallback(callbackRequest({ "authjs.state": "x", "esign.sign-in-restarted": full }), failedCheck());
    expect(res.headers.get("location")).toBe("http://localhost:3000/auth/error?error=LinkExpired");
  });

  it("shows the expired-link message for a stale link with no sign-in in progress", async () => {
    const res = await handleCallback(callbackRequest({}), failedCheck());
    expect(res.headers.get("location")).toBe("http://localhost:3000/auth/error?error=LinkExpired");
    expect(res.headers.getSetCookie()).toEqual([]);
  });
});
