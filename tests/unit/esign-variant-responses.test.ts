import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createDocumentResultSchema } from "@/lib/esign/schemas";

// Responses the spec allows but the sandbox's standard style never sends: the client must not be stricter than the spec.
const upload = "https://account.blob.core.windows.net/documents/f.pdf?sv=2024-01-01&sp=cw&sig=abc";
const variantCreateResponse = {
  itemId: "C0FFEE00-1234-1234-C234-0123456789AB", // upper case, non-RFC variant nibble
  fileId: "{0b1e2d3c-4f5a-6b7c-0d9e-0f1a2b3c4d5e}", // braces, variant 0
  sas: "",
  url: "",
  subdocid: "0",
  uploadendpoint: upload,
  region: "westeurope",
};

let client: typeof import("@/lib/esign/client");

beforeAll(async () => {
  Object.assign(process.env, {
    AUTH_SECRET: "unit-test-secret-0123456789abcdef0123456789",
    ESIGN_AUTH_URL: "http://auth.test",
    ESIGN_API_URL: "http://api.test",
    ESIGN_CLIENT_ID: "partner-app",
    ESIGN_CLIENT_SECRET: "unit-test-client-secret",
  });
  client = await import("@/lib/esign/client");
});

afterEach(() => vi.unstubAllGlobals());

function answer(status: number, body: string, contentType?: string) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => new Response(body || null, { status, headers: contentType ? { "content-type": contentType } : {} })),
  );
}

const errorBodies: [string, string, string | undefined][] = [
  ["JSON", '{"error":"invalid_request","error_description":"name too short"}', "application/json"],
  ["problem+json", '{"type":"about:blank","title":"Bad Request","status":400,"detail":"name too short"}', "application/problem+json"],
  ["plain text", "Name must have at least 3 characters", "text/plain; charset=utf-8"],
  ["empty", "", undefined],
  ["HTML", "<html><body><h1>400 Bad Request</h1></body></html>", "text/html"],
];

describe("createDocumentResultSchema", () => {
  it("accepts any GUID text, a numeric-string subdocid, empty sas/url and a missing container, keeping unknown fields", () => {
    const parsed = createDocumentResultSchema.parse(variantCreateResponse);
    expect(parsed).toMatchObject({
      itemId: "C0FFEE00-1234-1234-C234-0123456789AB",
      fileId: "{0b1e2d3c-4f5a-6b7c-0d9e-0f1a2b3c4d5e}",
      subdocid: 0,
      sas: "",
      uploadendpoint: upload,
      region: "westeurope",
    });
    expect(parsed.container).toBeUndefined();
    expect(createDocumentResultSchema.parse({ ...variantCreateResponse, subdocid: 7, container: null }).subdocid).toBe(7);
    expect(createDocumentResultSchema.parse({ ...variantCreateResponse, itemId: "0b1e2d3c4f5a6b7c0d9e0f1a2b3c4d5e" }).itemId).toHaveLength(32);
  });

  it("still refuses what the app cannot use: a relative or missing uploadendpoint, a non-GUID id, a non-integer subdocid", () => {
    for (const broken of [
      { uploadendpoint: "/documents/f.pdf?sig=abc" },
      { uploadendpoint: undefined },
      { uploadendpoint: "ftp://host/f.pdf" },
      { itemId: "42" },
      { fileId: "0b1e2d3c-4f5a-6b7c-0d9e" },
      { subdocid: "1.5" },
      { subdocid: "one" },
      { subdocid: undefined },
    ]) {
      expect(createDocumentResultSchema.safeParse({ ...variantCreateResponse, ...broken }).success, JSON.stringify(broken)).toBe(false);
    }
  });
});

describe("createDocument", () => {
  it("returns the variant response with subdocid as a number", async () => {
    answer(200, JSON.stringify(variantCreateResponse), "application/json");
    await expect(client.createDocument("at", { docid: null, name: "contract.pdf", doctype: "contract" })).resolves.toMatchObject({
      itemId: variantCreateResponse.itemId,
      subdocid: 0,
      uploadendpoint: upload,
    });
  });

  it.each(errorBodies)("maps a 400 with a %s body to NAME_TOO_SHORT", async (_format, body, type) => {
    answer(400, body, type);
    await expect(client.createDocument("at", { docid: null, name: "ab", doctype: "" })).rejects.toMatchObject({
      code: "NAME_TOO_SHORT",
      status: 400,
    });
  });

  it.each(errorBodies)("maps a 401 with a %s body to SESSION_EXPIRED and a 503 to SERVICE_UNAVAILABLE", async (_format, body, type) => {
    answer(401, body, type);
    await expect(client.createDocument("at", { docid: null, name: "abc", doctype: "" })).rejects.toMatchObject({ code: "SESSION_EXPIRED" });
    answer(503, body, type);
    await expect(client.createDocument("at", { docid: null, name: "abc", doctype: "" })).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE" });
  });
});

describe("getUserInfo", () => {
  it.each(errorBodies)("maps a 400 with a %s body to CUSTOMER_NOT_FOUND and a 403 to INSUFFICIENT_SCOPE", async (_format, body, type) => {
    answer(400, body, type);
    await expect(client.getUserInfo("at")).rejects.toMatchObject({ code: "CUSTOMER_NOT_FOUND", status: 404 });
    answer(403, body, type);
    await expect(client.getUserInfo("at")).rejects.toMatchObject({ code: "INSUFFICIENT_SCOPE", status: 403 });
  });
});

describe("refreshTokens", () => {
  // None of these bodies carries an OAuth error code (the JSON one's is not a token endpoint's): the status decides.
  it.each(errorBodies.filter(([format]) => format !== "JSON"))(
    "reads a 400 with a %s body as a rejected refresh token and a 401 as a misconfigured client",
    async (_format, body, type) => {
      answer(400, body, type);
      await expect(client.refreshTokens("rt")).rejects.toMatchObject({ reason: "rejected" });
      answer(401, body, type);
      await expect(client.refreshTokens("rt")).rejects.toMatchObject({ reason: "misconfigured" });
    },
  );

  it("accepts a token response without scope, refresh_token or id_token and a string expires_in", async () => {
    answer(200, JSON.stringify({ access_token: "at2", expires_in: "3600", token_type: "bearer" }), "application/json");
    const response = await client.refreshTokens("rt");
    expect(response).toMatchObject({ access_token: "at2", expires_in: 3600 });
    expect(response.scope).toBeUndefined();
  });
});
