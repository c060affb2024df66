import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetSandbox } from "../sandbox/support/sandbox";
import { headerValueArb } from "./support/arbitraries";
import { authorizationArb, type AuthorizationCase } from "./support/authorization";
import { documentBodyArb, hugeDocumentBodies, judgeDocumentBody, type DocumentBody } from "./support/document-request";
import { countDocuments, startFuzzSandbox, type FuzzSandbox } from "./support/fuzz-sandbox";
import { expectSandboxError, send } from "./support/sandbox-response";
import { StatusTally } from "./support/tally";
import { hugeTokenRequests, tokenRequestArb } from "./support/token-request";

const RUNS = 1000;
const TIMEOUT_MS = 120_000;
let fuzz: FuzzSandbox;

beforeAll(async () => {
  fuzz = await startFuzzSandbox();
});
afterAll(async () => {
  await fuzz?.sandbox.stop();
});

function headersOf(entries: Record<string, string | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(entries)) if (value !== undefined) headers.set(name, value);
  return headers;
}

/** The spec's answer: RFC 6750 authentication first, then the body's media type, size, syntax and fields. */
function expectedDocumentStatus(auth: AuthorizationCase, body: DocumentBody): number {
  if (auth.caller === "anonymous") return 401;
  if (auth.caller === "noScope") return 403;
  const verdict = judgeDocumentBody(body);
  if (verdict === "accept") return 200;
  return verdict === "too-large" ? 413 : 400;
}

const expectedUserInfoStatus = { alice: 200, bob: 400, noScope: 403, anonymous: 401 } as const;

// Arbitrary extra headers under a prefix no server gives meaning to, so only their bytes are being tested.
const extraHeadersArb = fc.dictionary(
  fc.stringMatching(/^[a-z0-9-]{1,16}$/).map((name) => `x-fuzz-${name}`),
  headerValueArb,
  { maxKeys: 3 },
);

describe("sandbox POST /api/document under fuzzed input", () => {
  it("never answers 5xx, refuses every invalid request in the error shape and creates a document only for a valid one", async () => {
    const tally = new StatusTally("sandbox POST /api/document");
    const property = fc.asyncProperty(authorizationArb(fuzz.tokens), documentBodyArb, async (auth, body) => {
      await resetSandbox(fuzz.sandbox);
      const response = await send(`${fuzz.sandbox.apiUrl}/api/document`, {
        method: "POST",
        headers: headersOf({ authorization: auth.header, "content-type": body.contentType }),
        body: Buffer.from(body.bytes),
      });
      tally.record(response.status);
      const expected = expectedDocumentStatus(auth, body);
      expect(response.status, response.text).toBe(expected);
      if (expected !== 200) expectSandboxError(response);
      expect(await countDocuments(fuzz.sandbox)).toBe(expected === 200 ? 1 : 0);
    });
    const alice: AuthorizationCase = { header: `Bearer ${fuzz.tokens.alice}`, caller: "alice" };
    await fc.assert(property, { numRuns: RUNS, examples: hugeDocumentBodies.map((body) => [alice, body]) });

    console.log(tally.summary());
    expect(tally.serverErrors).toBe(0);
    // The generators must reach every outcome, or the property proves less than it claims.
    expect(tally.statuses()).toEqual(expect.arrayContaining([200, 400, 401, 403, 413]));
  }, TIMEOUT_MS);
});

describe("sandbox GET /api/getuserinfo under fuzzed input", () => {
  it("never answers 5xx and answers each caller as the spec says, every refusal in the error shape", async () => {
    const tally = new StatusTally("sandbox GET /api/getuserinfo");
    const property = fc.asyncProperty(
      authorizationArb(fuzz.tokens),
      extraHeadersArb,
      fc.option(fc.string({ maxLength: 30 }), { nil: undefined }),
      async (auth, extra, query) => {
        const url = new URL(`${fuzz.sandbox.apiUrl}/api/getuserinfo`);
        if (query !== undefined) url.search = new URLSearchParams({ q: query }).toString();
        const response = await send(url.href, { headers: headersOf({ ...extra, authorization: auth.header }) });
        tally.record(response.status);
        expect(response.status, response.text).toBe(expectedUserInfoStatus[auth.caller]);
        if (response.status !== 200) expectSandboxError(response);
        if (response.status === 401) expect(response.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
      },
    );
    await fc.assert(property, { numRuns: RUNS });

    console.log(tally.summary());
    expect(tally.serverErrors).toBe(0);
    expect(tally.statuses()).toEqual([200, 400, 401, 403]);
  }, TIMEOUT_MS);
});

describe("sandbox POST /connect/token under fuzzed input", () => {
  it("never answers 5xx and refuses every request that carries no real grant with a 4xx in the error shape", async () => {
    const tally = new StatusTally("sandbox POST /connect/token");
    const property = fc.asyncProperty(tokenRequestArb, async (request) => {
      const response = await send(`${fuzz.sandbox.authUrl}/connect/token`, {
        method: "POST",
        headers: headersOf({ authorization: request.authorization, "content-type": request.contentType }),
        body: Buffer.from(request.body),
      });
      tally.record(response.status);
      expect(response.status, response.text).toBeGreaterThanOrEqual(400);
      expect(response.status, response.text).toBeLessThan(500);
      expectSandboxError(response);
    });
    await fc.assert(property, { numRuns: RUNS, examples: hugeTokenRequests.map((request) => [request]) });

    console.log(tally.summary());
    expect(tally.serverErrors).toBe(0);
    expect(tally.statuses()).toEqual(expect.arrayContaining([400, 401, 413]));
  }, TIMEOUT_MS);
});
