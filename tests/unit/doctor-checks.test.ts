import { describe, expect, it } from "vitest";
import { checkScopes } from "@/lib/doctor/client-checks";
import { checkClock, checkEndpoints } from "@/lib/doctor/discovery-checks";
import { checkBackchannelLogout, checkRevocation } from "@/lib/doctor/logout-checks";
import { unreadableUploadHeaders } from "@/lib/doctor/service-checks";
import type { DoctorContext } from "@/lib/doctor/context";
import { formatText, passed, redact } from "@/lib/doctor/report";
import type { AppConfig } from "@/lib/env";

const now = Date.parse("2026-11-26T12:00:00Z");

describe("doctor: clock skew", () => {
  it("passes within a minute of the auth server's Date header, either way", () => {
    expect(checkClock(new Date(now - 59_000).toUTCString(), now)).toMatchObject({ status: "pass", detail: "59 s from the auth server's clock" });
    expect(checkClock(new Date(now + 60_000).toUTCString(), now).status).toBe("pass");
  });

  it("warns above 60 s, saying which side is off, and a warning still lets the doctor pass", () => {
    const ahead = checkClock(new Date(now - 90_000).toUTCString(), now);
    expect(ahead).toMatchObject({ status: "warn", detail: "this host is 90 s ahead of the auth server" });
    expect(ahead.fix).toMatch(/NTP/);
    expect(checkClock(new Date(now + 120_000).toUTCString(), now).detail).toBe("this host is 120 s behind the auth server");
    expect(passed([ahead])).toBe(true);
    expect(formatText([ahead])).toContain("! Clock: this host is 90 s ahead of the auth server\n    fix: ");
  });

  it("is not checked without a Date header", () => {
    expect(checkClock(undefined, now).status).toBe("skip");
    expect(passed([checkClock(undefined, now)])).toBe(false);
  });
});

describe("doctor: endpoints", () => {
  const ctx = { config: { authUrl: "https://auth.example" } as AppConfig, appOrigin: undefined, redirectUri: undefined } satisfies DoctorContext;

  it("warns when discovery publishes other authorize or token paths than the spec's", () => {
    const result = checkEndpoints(ctx, {
      authorization_endpoint: "https://auth.example/connect/authorize",
      token_endpoint: "https://auth.example/oauth2/token",
    });
    expect(result).toMatchObject({ status: "warn", detail: "token_endpoint is https://auth.example/oauth2/token, the app uses https://auth.example/connect/token" });
  });
});

describe("doctor: redact", () => {
  it("removes every occurrence of each secret", () => {
    expect(redact("a s3cret b s3cret", ["s3cret", undefined])).toBe("a [redacted] b [redacted]");
  });
});

describe("doctor: storage CORS exposure, judged from a refused PUT", () => {
  // What Azurite 3.35 (which follows Azure's rule evaluation) answered an anonymous PUT from an allowed
  // origin, per exposed-headers rule: literal names are listed as they are, prefix rules (`*` too) only
  // as the headers of this answer that match them.
  const answer = (exposed: string) =>
    new Headers({
      "access-control-allow-credentials": "true",
      "access-control-allow-origin": "http://localhost:4210",
      "access-control-expose-headers": exposed,
      connection: "keep-alive",
      "content-type": "application/xml",
      date: "Thu, 26 Nov 2026 10:57:22 GMT",
      "keep-alive": "timeout=5",
      server: "Azurite-Blob/3.35.0",
      "transfer-encoding": "chunked",
      vary: "Origin",
      "x-ms-error-code": "AuthorizationFailure",
      "x-ms-request-id": "795f70d4-1bf1-417c-9607-35b8dfdad3bc",
    });

  it("accepts a * rule, listed as every header of the answer", () => {
    expect(unreadableUploadHeaders(answer("server,x-ms-error-code,x-ms-request-id,Date,Connection,Transfer-Encoding"))).toEqual([]);
    expect(unreadableUploadHeaders(answer("*"))).toEqual([]);
  });

  it("accepts content-md5 named literally with x-ms-*", () => {
    expect(unreadableUploadHeaders(answer("x-ms-error-code,x-ms-request-id,content-md5,etag"))).toEqual([]);
  });

  it("names content-md5 (and the hidden x-ms-* headers) when the rule exposes only x-ms-request-id", () => {
    expect(unreadableUploadHeaders(answer("x-ms-request-id"))).toEqual(["content-md5", "x-ms-error-code"]);
  });

  it("names content-md5 when the rule exposes x-ms-* alone", () => {
    expect(unreadableUploadHeaders(answer("x-ms-error-code,x-ms-request-id"))).toEqual(["content-md5"]);
  });

  it("names content-md5 when the answer carries no CORS headers at all", () => {
    const bare = answer("");
    bare.delete("access-control-expose-headers");
    expect(unreadableUploadHeaders(bare)).toContain("content-md5");
  });
});

describe("doctor: scopes", () => {
  const config = { clientId: "partner", clientSecret: "s", scopes: "openid email service.api offline_access" } as AppConfig;
  const ctx = { config, appOrigin: undefined, redirectUri: undefined } satisfies DoctorContext;

  it("warns, never fails, about a requested scope that discovery does not advertise", () => {
    const result = checkScopes(ctx, { scopes_supported: ["openid", "email", "offline_access", "service.app"] });
    expect(result).toMatchObject({ status: "warn", detail: expect.stringContaining("not in discovery's scopes_supported: service.api") });
    expect(passed([result])).toBe(true);
  });
});

describe("doctor: logout support", () => {
  const ctx = { config: {} as AppConfig, appOrigin: "https://partner.example.com", redirectUri: undefined } satisfies DoctorContext;

  it("passes with the URI to register when back-channel logout is advertised, saying whether sid is", () => {
    expect(checkBackchannelLogout(ctx, { backchannel_logout_supported: true, backchannel_logout_session_supported: true })).toMatchObject({
      status: "pass",
      detail: "supported, with sid (per session); register https://partner.example.com/api/auth/backchannel-logout as the client's back-channel logout URI",
    });
    expect(checkBackchannelLogout(ctx, { backchannel_logout_supported: true }).detail).toMatch(/without sid/);
  });

  it("warns, with what to register, when discovery does not advertise it", () => {
    const result = checkBackchannelLogout(ctx, {});
    expect(result.status).toBe("warn");
    expect(result.fix).toContain("register https://partner.example.com/api/auth/backchannel-logout");
  });

  it("reports a revocation endpoint as ✓ and its absence as a warning", () => {
    expect(checkRevocation({ revocation_endpoint: "https://auth.example/connect/revocation" })).toMatchObject({ status: "pass" });
    expect(checkRevocation({ revocation_endpoint: 42 })).toMatchObject({ status: "warn" });
    expect(passed([checkRevocation({})])).toBe(true);
  });
});
