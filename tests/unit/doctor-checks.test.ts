import { describe, expect, it } from "vitest";
import { checkClock, checkEndpoints } from "@/lib/doctor/discovery-checks";
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
