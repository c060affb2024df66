import { describe, expect, it } from "vitest";
import { redactRecord, scrubSecrets } from "@/lib/logging/redact";
import { resolveRequestId } from "@/lib/logging/request-context";

describe("log redaction", () => {
  it("replaces secret keys at any depth, whatever their case", () => {
    const record = {
      msg: "x",
      req: { headers: { Authorization: "Bearer abc.def", cookie: "__Secure-authjs.session-token=xyz", accept: "*/*" } },
      body: { client_secret: "s3cret", nested: [{ refresh_token: "r1" }] },
    };
    expect(redactRecord(record)).toEqual({
      msg: "x",
      req: { headers: { Authorization: "[redacted]", cookie: "[redacted]", accept: "*/*" } },
      body: { client_secret: "[redacted]", nested: [{ refresh_token: "[redacted]" }] },
    });
  });

  it("scrubs secret-shaped text inside messages: bearer tokens, SAS signatures, form and JSON secrets", () => {
    const text =
      'token endpoint said: Bearer eyJhbGciOi.x.y; PUT https://a.blob.core.windows.net/c/b?sv=2021&sig=AbC%2Bd%3D&se=1 ' +
      'body grant_type=refresh_token&refresh_token=rt-123&client_secret=cs-456 {"access_token":"at-789"}';
    const out = scrubSecrets(text);
    for (const secret of ["eyJhbGciOi", "AbC%2Bd%3D", "rt-123", "cs-456", "at-789"]) expect(out).not.toContain(secret);
    expect(out).toContain("sv=2021");
    expect(out).toContain("&se=1");
  });
});

describe("request id", () => {
  it("takes the trusted proxy's id when it is short and plain", () => {
    expect(resolveRequestId("0123456789abcdef0123456789abcdef", true)).toBe("0123456789abcdef0123456789abcdef");
  });

  it("ignores an incoming id when no trusted proxy is configured", () => {
    expect(resolveRequestId("0123456789abcdef0123456789abcdef", false)).not.toBe("0123456789abcdef0123456789abcdef");
  });

  it("replaces an id that could smuggle text into logs", () => {
    const id = resolveRequestId("abc\ninjected log line", true);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });
});
