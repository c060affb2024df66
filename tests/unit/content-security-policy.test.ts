import { describe, expect, it } from "vitest";
import { buildContentSecurityPolicy, createNonce } from "@/lib/security/content-security-policy";

function directives(csp: string): Map<string, string[]> {
  return new Map(csp.split("; ").map((d) => { const [name = "", ...values] = d.split(" "); return [name, values]; }));
}

describe("buildContentSecurityPolicy", () => {
  const csp = directives(
    buildContentSecurityPolicy({
      nonce: "abc",
      authOrigin: "https://auth.example.com",
      storageOrigins: ["https://acct.blob.core.windows.net"],
      development: false,
    }),
  );

  it("allows scripts only by nonce and what they load", () => {
    expect(csp.get("script-src")).toEqual(["'self'", "'nonce-abc'", "'strict-dynamic'", "'wasm-unsafe-eval'"]);
    expect(csp.get("object-src")).toEqual(["'none'"]);
    expect(csp.get("base-uri")).toEqual(["'self'"]);
  });

  it("limits connections to the app and the configured storage, forms to the app and the auth server", () => {
    expect(csp.get("connect-src")).toEqual(["'self'", "https://acct.blob.core.windows.net"]);
    expect(csp.get("form-action")).toEqual(["'self'", "https://auth.example.com"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
  });

  it("makes a different nonce every time", () => {
    expect(createNonce()).not.toBe(createNonce());
    expect(createNonce()).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });
});
