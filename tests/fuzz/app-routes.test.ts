import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configureAppEnv } from "./support/app-env";
import { callRoute, expectAppError, type RouteHandler } from "./support/app-route";
import { startFuzzSandbox, type FuzzSandbox } from "./support/fuzz-sandbox";
import { encodeSessionCookies, sessionCaseArb, type SessionCookies, type SessionOutcome } from "./support/session-cases";
import { StatusTally } from "./support/tally";

configureAppEnv();
const account = await import("@/app/api/account/route");

const RUNS = 1000;
const TIMEOUT_MS = 120_000;
const APP_ORIGIN = "http://localhost:3500";

let fuzz: FuzzSandbox;
let cookies: SessionCookies;

beforeAll(async () => {
  fuzz = await startFuzzSandbox();
  cookies = await encodeSessionCookies(fuzz.tokens);
});
afterAll(async () => {
  await fuzz?.sandbox.stop();
});

/** GET /api/account's answer to each session outcome (README, error codes). */
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
