import { describe, expect, it } from "vitest";
import { needsRefresh, refreshMarginSeconds } from "@/lib/auth/session-token";

describe("needsRefresh", () => {
  const base = { accessToken: "at", refreshToken: "rt", accessTokenLifetime: 3600 };

  it("refreshes a minute before a one-hour token expires", () => {
    expect(refreshMarginSeconds(3600)).toBe(60);
    expect(needsRefresh({ ...base, accessTokenExpiresAt: 10_000 }, 10_000 - 61)).toBe(false);
    expect(needsRefresh({ ...base, accessTokenExpiresAt: 10_000 }, 10_000 - 60)).toBe(true);
  });

  it("scales the margin down for short-lived tokens", () => {
    expect(refreshMarginSeconds(10)).toBe(1);
    expect(needsRefresh({ ...base, accessTokenLifetime: 10, accessTokenExpiresAt: 100 }, 98)).toBe(false);
    expect(needsRefresh({ ...base, accessTokenLifetime: 10, accessTokenExpiresAt: 100 }, 99)).toBe(true);
  });

  it("never refreshes a session that already failed", () => {
    expect(needsRefresh({ ...base, accessTokenExpiresAt: 0, error: "RefreshRejected" }, 100)).toBe(false);
  });
});
