import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { RunningSandbox } from "../../sandbox/index";
import { addFault, resetSandbox, startTestSandbox } from "./support/sandbox";
import { PARTNER, partnerTokens, postToken } from "./support/oauth";

let sandbox: RunningSandbox;
let token: string;
let refreshToken: string;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(async () => {
  await sandbox?.stop();
});
beforeEach(async () => {
  await resetSandbox(sandbox);
  const tokens = await partnerTokens(sandbox);
  token = tokens.access_token;
  refreshToken = tokens.refresh_token ?? "";
});

const getUserInfo = (init: RequestInit = {}) =>
  fetch(`${sandbox.apiUrl}/api/getuserinfo`, { ...init, headers: { authorization: `Bearer ${token}` } });

const createDocument = () =>
  fetch(`${sandbox.apiUrl}/api/document`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ docid: null, name: "contract.pdf", doctype: "contract" }),
  });

const refresh = (value = refreshToken) =>
  postToken(sandbox, { grant_type: "refresh_token", refresh_token: value, ...PARTNER });

describe("token faults", () => {
  it("answers the faulted status for the next N refresh calls only, with a JSON error body", async () => {
    await addFault(sandbox, { target: "token", grantType: "refresh_token", status: 500, count: 2 });
    expect(await refresh()).toMatchObject({ status: 500, body: { error: "server_error", error_description: expect.any(String) } });
    expect((await refresh()).status).toBe(500);
    const third = await refresh();
    expect(third.status).toBe(200);
  });

  it("answers spec-like 400 invalid_grant and 401 invalid_client bodies", async () => {
    await addFault(sandbox, { target: "token", status: 400 });
    await addFault(sandbox, { target: "token", status: 401 });
    expect(await refresh()).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect(await refresh()).toMatchObject({ status: 401, body: { error: "invalid_client" } });
  });

  it("ignores a fault set for another grant type", async () => {
    await addFault(sandbox, { target: "token", grantType: "authorization_code", status: 500 });
    expect((await refresh()).status).toBe(200);
    const faults = await (await fetch(`${sandbox.apiUrl}/_sandbox/faults`)).json();
    expect(faults.faults).toEqual([expect.objectContaining({ target: "token", grantType: "authorization_code", remaining: 1 })]);
  });

  it("delays a token response by delayMs and still answers it", async () => {
    await addFault(sandbox, { target: "token", delayMs: 400 });
    const started = Date.now();
    expect((await refresh()).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
  });
});

describe("api faults", () => {
  it("answers 503 for the next N calls of the targeted operation", async () => {
    await addFault(sandbox, { target: "getuserinfo", status: 503, count: 1 });
    expect((await createDocument()).status).toBe(200);
    const faulted = await getUserInfo();
    expect(faulted.status).toBe(503);
    expect((await faulted.json()).error).toBe("server_error");
    expect((await getUserInfo()).status).toBe(200);
  });

  it("answers the service's own rate limit: 429 too_many_requests with the Retry-After it was given", async () => {
    await addFault(sandbox, { target: "document", status: 429, retryAfterSeconds: 30 });
    const limited = await createDocument();
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("30");
    expect((await limited.json()).error).toBe("too_many_requests");
    expect((await createDocument()).status).toBe(200);
  });

  it("applies an api fault to both operations", async () => {
    await addFault(sandbox, { target: "api", status: 502, count: 2 });
    expect((await createDocument()).status).toBe(502);
    expect((await getUserInfo()).status).toBe(502);
    expect((await getUserInfo()).status).toBe(200);
  });

  it("delays an API answer by delayMs and then answers normally", async () => {
    await addFault(sandbox, { target: "getuserinfo", delayMs: 300 });
    const started = Date.now();
    expect((await getUserInfo()).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it("hangs until the client gives up, then serves the next call normally", async () => {
    await addFault(sandbox, { target: "api", hang: true });
    await expect(getUserInfo({ signal: AbortSignal.timeout(300) })).rejects.toThrow();
    expect((await getUserInfo()).status).toBe(200);
  });

  it("answers 200 with a malformed body", async () => {
    await addFault(sandbox, { target: "document", malformed: true });
    const response = await createDocument();
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(typeof body.itemId).not.toBe("string");
  });
});

describe("admin routes", () => {
  it.each([
    ["an unknown target", { target: "nope", status: 500 }],
    ["a status outside 400-599", { target: "api", status: 200 }],
    ["two behaviours at once", { target: "api", status: 500, hang: true }],
    ["no behaviour", { target: "token" }],
    ["an unknown field", { target: "sas", expired: true, extra: 1 }],
    ["a Retry-After without a status", { target: "api", delayMs: 100, retryAfterSeconds: 5 }],
  ])("rejects a fault with %s", async (_label, fault) => {
    const response = await addFault(sandbox, fault);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe("invalid_request");
  });

  it("reset clears stats, faults and documents", async () => {
    await createDocument();
    await addFault(sandbox, { target: "api", status: 500, count: 5 });
    expect((await fetch(`${sandbox.apiUrl}/_sandbox/reset`, { method: "POST" })).status).toBe(200);
    expect((await (await fetch(`${sandbox.apiUrl}/_sandbox/faults`)).json()).faults).toEqual([]);
    expect((await (await fetch(`${sandbox.apiUrl}/_sandbox/documents`)).json()).documents).toEqual([]);
    expect(await (await fetch(`${sandbox.apiUrl}/_sandbox/stats`)).json()).toEqual({
      grants: { authorization_code: 0, refresh_token: 0 },
      issued: [],
      tokenErrors: {},
      refreshReuse: 0,
      revocations: { refresh_token: 0, access_token: 0 },
      jwksRequests: 0,
      backchannelLogouts: { sent: 0, failed: 0 },
      operations: { authorize: {}, token: {}, discovery: {}, document: {}, getuserinfo: {} },
    });
  });

  it("answers 404 and 405 as JSON", async () => {
    expect((await fetch(`${sandbox.apiUrl}/_sandbox/unknown`)).status).toBe(404);
    const wrongMethod = await fetch(`${sandbox.apiUrl}/_sandbox/stats`, { method: "DELETE" });
    expect(wrongMethod.status).toBe(405);
    expect((await wrongMethod.json()).error).toBe("method_not_allowed");
  });

  it("is not served on the auth server", async () => {
    expect((await fetch(`${sandbox.authUrl}/_sandbox/stats`)).status).toBe(404);
  });
});

describe("outage switch", () => {
  const outage = (body: unknown) =>
    fetch(`${sandbox.apiUrl}/_sandbox/outage`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  /**
   * Refused from the switch on, then serving again by itself. Each state is awaited (polled), not assumed after a
   * fixed time: how soon the server stops and listens again depends on the machine. The refusal is polled well
   * within the outage (3 s, so that a slow machine still meets it); the return is bounded by 20 s, the test by 30 s.
   */
  async function refusedThenBack(url: string) {
    await vi.waitFor(() => expect(fetch(url)).rejects.toThrow(), { timeout: 10_000, interval: 20 });
    await vi.waitFor(async () => expect((await fetch(url)).status).toBeLessThan(500), { timeout: 20_000, interval: 100 });
  }

  it("refuses connections to the API for the given time, then serves again", async () => {
    expect((await outage({ part: "api", ms: 3_000 })).status).toBe(202);
    await refusedThenBack(`${sandbox.apiUrl}/_sandbox/stats`);
  });

  it("refuses connections to the auth server for the given time, then serves again", async () => {
    expect((await outage({ part: "auth", ms: 3_000 })).status).toBe(202);
    await refusedThenBack(`${sandbox.authUrl}/.well-known/openid-configuration`);
  });

  it.each([
    ["an unknown part", { part: "blob", ms: 500 }],
    ["a duration under 100 ms", { part: "api", ms: 10 }],
    ["a duration over a minute", { part: "api", ms: 60_001 }],
  ])("rejects %s", async (_label, body) => {
    const response = await outage(body);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe("invalid_request");
  });
});

describe("request ids", () => {
  it("records the X-Request-Id of each API call with its operation and status, null when none was sent", async () => {
    await fetch(`${sandbox.apiUrl}/api/getuserinfo`, { headers: { authorization: `Bearer ${token}`, "x-request-id": "rid-0123456789" } });
    await fetch(`${sandbox.apiUrl}/api/getuserinfo`);
    const { requests } = (await (await fetch(`${sandbox.apiUrl}/_sandbox/request-ids`)).json()) as {
      requests: { requestId: string | null; operation: string; status: number }[];
    };
    expect(requests.slice(-2)).toEqual([
      { requestId: "rid-0123456789", operation: "getuserinfo", status: 200 },
      { requestId: null, operation: "getuserinfo", status: 401 },
    ]);
  });
});
