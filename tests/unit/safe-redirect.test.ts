import { describe, expect, it } from "vitest";
import { safeRedirect } from "@/lib/auth/safe-redirect";

const base = "http://localhost:3000";

describe("safeRedirect", () => {
  it("keeps paths and URLs on the app's origin", () => {
    expect(safeRedirect("/account", base)).toBe("http://localhost:3000/account");
    expect(safeRedirect("http://localhost:3000/documents?x=1", base)).toBe("http://localhost:3000/documents?x=1");
  });

  it.each([
    "https://evil.example/phish",
    "//evil.example/phish",
    "/\\evil.example",
    "http://localhost:3001/account",
    "javascript:alert(1)",
    "http://localhost:3000@evil.example/",
  ])("sends %s to the start page instead", (url) => {
    expect(safeRedirect(url, base)).toBe("http://localhost:3000");
  });
});
