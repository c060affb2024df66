import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configureAppEnv } from "./support/app-env";
import { callRoute, expectAppError, type RouteHandler } from "./support/app-route";
import { countDocuments, startFuzzSandbox, type FuzzSandbox } from "./support/fuzz-sandbox";
import { documentBodyArb, hugeDocumentBodies, type DocumentBody } from "./support/document-request";
import { createDocumentInputSchema } from "@/lib/esign/schemas";
import {
  encodeSessionCookies,
  forwardedAsHttps,
  sessionCaseArb,
  type SessionCase,
  type SessionCookies,
  type SessionOutcome,
} from "./support/session-cases";
import { StatusTally } from "./support/tally";

const appEnv = configureAppEnv();
const account = await import("@/app/api/account/route");
const documents = await import("@/app/api/documents/route");
const { closeDatabase, getDatabase } = await import("@/lib/db/client");

const RUNS = 1000;
const TIMEOUT_MS = 120_000;
const APP_ORIGIN = "http://localhost:3500";

let fuzz: FuzzSandbox;
let cookies: SessionCookies;

beforeAll(async () => {
  fuzz = await startFuzzSandbox();
  cookies = await encodeSessionCookies(fuzz.tokens);
  // Before the first request, as a server does (instrumentation.ts): PGlite's first open holds the event loop for
  // seconds, which the in-process sandbox's keep-alive connections do not survive.
  await getDatabase();
});
afterAll(async () => {
  await fuzz?.sandbox.stop();
  await closeDatabase();
  appEnv.removeFolders();
});

/** GET /api/account's answer to each session outcome (docs/architecture.md, error codes). */
function expectedAccountAnswer(outcome: SessionOutcome): { status: number; code?: string } {
  if ("refused" in outcome) return { status: 401, code: outcome.refused };
  switch (outcome.caller) {
    case "alice":
      return { status: 200 };
    case "bob":
      return { status: 404, code: "CUSTOMER_NOT_FOUND" };
    case "noScope":
      return { status: 403, code: "INSUFFICIENT_SCOPE" };
    case "unknownToken":
      return { status: 401, code: "SESSION_EXPIRED" };
  }
}

describe("app GET /api/account under fuzzed sessions and headers", () => {
  it("never answers 5xx, answers each session as the error table says and never echoes a token", async () => {
    const tally = new StatusTally("app GET /api/account");
    const handler: RouteHandler = account.GET;
    const property = fc.asyncProperty(sessionCaseArb(cookies, fuzz.tokens), fc.string({ maxLength: 20 }), async (session, query) => {
      const url = new URL("/api/account", APP_ORIGIN);
      url.search = new URLSearchParams({ q: query }).toString();
      const response = await callRoute(handler, { method: "GET", url: url.href, headers: session.headers });
      tally.record(response.status);
      const expected = expectedAccountAnswer(session.outcome);
      expect(response.status, response.text).toBe(expected.status);
      if (expected.code) expectAppError(response, expected.code);
      else expect(response.body).toEqual({ customer: expect.any(Object), user: expect.any(Object) });
      for (const token of Object.values(fuzz.tokens)) expect(response.text).not.toContain(token);
    });
    await fc.assert(property, { numRuns: RUNS });

    console.log(tally.summary());
    expect(tally.serverErrors).toBe(0);
    expect(tally.statuses()).toEqual([200, 401, 403, 404]);
  }, TIMEOUT_MS);
});

/** What the app itself accepts (stricter than the service: no extra fields, bounded lengths, 16 KiB body). */
function judgeAppDocumentBody({ contentType, bytes }: DocumentBody): { status: number; code?: string } {
  const mediaType = (contentType ?? "").split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "application/json") return { status: 400, code: "VALIDATION_FAILED" };
  if (bytes.byteLength > 16 * 1024) return { status: 413, code: "PAYLOAD_TOO_LARGE" };
  const parsed = createDocumentInputSchema.safeParse(parseJson(bytes));
  return parsed.success ? { status: 201 } : { status: 400, code: "VALIDATION_FAILED" };
}

function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return Symbol("not JSON"); // fails the schema like any non-object
  }
}

/** POST /api/documents' answer: cross-site check, then the session, then the body, then the service's verdict. */
function expectedDocumentsAnswer(secFetchSite: string, outcome: SessionOutcome, body: DocumentBody): { status: number; code?: string } {
  const site = secFetchSite.replace(/^[\t ]+|[\t ]+$/g, "");
  if (site !== "same-origin" && site !== "none") return { status: 403, code: "CROSS_SITE_REQUEST" };
  if ("refused" in outcome) return { status: 401, code: outcome.refused };
  const verdict = judgeAppDocumentBody(body);
  if (verdict.status !== 201) return verdict;
  switch (outcome.caller) {
    case "alice":
    case "bob":
      return { status: 201 };
    case "noScope":
      return { status: 403, code: "INSUFFICIENT_SCOPE" };
    case "unknownToken":
      return { status: 401, code: "SESSION_EXPIRED" };
  }
}

describe("app POST /api/documents under fuzzed sessions, headers and bodies", () => {
  it("never answers 5xx, refuses every invalid or cross-site request in the error shape and creates a document only for a valid one", async () => {
    const tally = new StatusTally("app POST /api/documents");
    const handler: RouteHandler = documents.POST;
    const siteArb = fc.oneof({ weight: 8, arbitrary: fc.constant("same-origin") }, { weight: 2, arbitrary: fc.string({ maxLength: 12 }) });
    // Alice's plain session often, so that the body checks and the create path behind them get many inputs too.
    const alice: SessionCase = { headers: { cookie: `authjs.session-token=${cookies["authjs.session-token"].alice}` }, outcome: { caller: "alice" } };
    const sessionArb = fc.oneof({ weight: 1, arbitrary: fc.constant(alice) }, { weight: 1, arbitrary: sessionCaseArb(cookies, fuzz.tokens) });
    const property = fc.asyncProperty(sessionArb, documentBodyArb, siteArb, async (session, body, site) => {
      await fetch(`${fuzz.sandbox.apiUrl}/_sandbox/reset`, { method: "POST" });
      // The Origin a browser sends to the app as the proxy serves it (https when x-forwarded-proto says so).
      const origin = forwardedAsHttps(session.headers["x-forwarded-proto"]) ? APP_ORIGIN.replace(/^http:/, "https:") : APP_ORIGIN;
      const headers: Record<string, string> = { ...session.headers, origin, "sec-fetch-site": site };
      if (body.contentType !== undefined) headers["content-type"] = body.contentType;
      const response = await callRoute(handler, { method: "POST", url: `${APP_ORIGIN}/api/documents`, headers, body: body.bytes });
      tally.record(response.status);
      const expected = expectedDocumentsAnswer(site, session.outcome, body);
      expect(response.status, response.text).toBe(expected.status);
      if (expected.code) expectAppError(response, expected.code);
      else expect(response.body).toMatchObject({ itemId: expect.any(String), uploadendpoint: expect.any(String) });
      expect(await countDocuments(fuzz.sandbox)).toBe(response.status === 201 ? 1 : 0);
      for (const token of Object.values(fuzz.tokens)) expect(response.text).not.toContain(token);
    });
    // Over-limit bodies are rare among the generated ones; these pin them for alice on every run.
    const examples = hugeDocumentBodies.map((body): [SessionCase, DocumentBody, string] => [alice, body, "same-origin"]);
    await fc.assert(property, { numRuns: RUNS, examples });

    console.log(tally.summary());
    expect(tally.serverErrors).toBe(0);
    expect(tally.statuses()).toEqual([201, 400, 401, 403, 413]);
  }, TIMEOUT_MS);
});
