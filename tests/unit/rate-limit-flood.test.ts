import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../sandbox/index";
import { partnerTokens, type TokenSet } from "../sandbox/support/oauth";
import { workerPort } from "../support/worker-port";

// One user's flood of document creations against the default budgets, through the real route handlers and a real
// sandbox (which counts what reaches it), while another user reads their account. Timing is not asserted: the
// other user's p95 during such a flood is a figure of `npm run bench:rate-limit`.
const ORIGIN = "http://localhost:3000";
const PORTS = {
  authPort: Number(process.env.FLOOD_TEST_AUTH_PORT ?? workerPort(4890)),
  apiPort: Number(process.env.FLOOD_TEST_API_PORT ?? workerPort(4891)),
  blobPort: Number(process.env.FLOOD_TEST_BLOB_PORT ?? workerPort(4892)),
};
const CREATIONS = 1000;
const AT_ONCE = 40;

let dir: string;
let sandbox: RunningSandbox;
let documentsRoute: typeof import("@/app/api/documents/route");
let accountRoute: typeof import("@/app/api/account/route");
let closeDatabase: () => Promise<void>;
let alice: string;
let carol: string;

/** A session holding the sandbox's real tokens, sealed into the app's cookie, as a sign-in leaves it. */
async function cookieFor(tokens: TokenSet): Promise<string> {
  const { createSession } = await import("@/lib/session/sessions");
  const { encodeSessionToken, sessionCookieName } = await import("@/lib/auth/session-cookie");
  const subject = JSON.parse(Buffer.from(tokens.id_token.split(".")[1]!, "base64url").toString()).sub as string;
  const handle = await createSession({
    subject,
    accessToken: tokens.access_token,
    accessTokenExpiresAt: Math.floor(Date.now() / 1000) + 3600,
    device: { browser: "Chrome 131", os: "macOS 10.15" },
  });
  const req = new NextRequest(`${ORIGIN}/`);
  return `${sessionCookieName(req)}=${await encodeSessionToken(req, { sub: subject, sessionHandle: handle })}`;
}

const documentsCreatedAtSandbox = async () => {
  const stats = (await (await fetch(`${sandbox.apiUrl}/_sandbox/stats`)).json()) as { operations: { document: Record<string, number> } };
  return stats.operations.document["200"] ?? 0;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "rate-limit-flood-"));
  sandbox = await startSandbox({ ...PORTS, accessTokenTtl: 3600 });
  Object.assign(process.env, {
    AUTH_SECRET: "unit-test-secret-0123456789abcdef0123456789",
    ESIGN_USE_SANDBOX: "true",
    ESIGN_AUTH_URL: sandbox.authUrl,
    ESIGN_API_URL: sandbox.apiUrl,
    ESIGN_STORAGE_ORIGINS: sandbox.blobUrl,
    SESSION_STORE_DIR: join(dir, "sessions"),
    DATABASE_DIR: join(dir, "db"),
    // The sandbox shares this process's event loop with the flood: on a busy machine its answers can take seconds.
    // Speed is not what is tested here, so a slow answer should not become a 504.
    ESIGN_REQUEST_TIMEOUT_MS: "60000",
  });
  for (const key of Object.keys(process.env)) if (key.startsWith("RATE_LIMIT_")) delete process.env[key];
  documentsRoute = await import("@/app/api/documents/route");
  accountRoute = await import("@/app/api/account/route");
  const db = await import("@/lib/db/client");
  closeDatabase = db.closeDatabase;
  await db.getDatabase();
  alice = await cookieFor(await partnerTokens(sandbox));
  carol = await cookieFor(await partnerTokens(sandbox, undefined, { email: "carol@example.com", password: "carol-password" }));
}, 120_000);

afterAll(async () => {
  await closeDatabase?.();
  await sandbox?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("one user's flood of creations", () => {
  it("gets 429s once the default budget is spent, most never reach the service, and another user's account keeps answering", async () => {
    const { RATE_LIMIT_DEFAULTS } = await import("@/lib/rate-limit/policies");
    const budget = RATE_LIMIT_DEFAULTS["documents-create"].points;
    const atSandboxBefore = await documentsCreatedAtSandbox();
    const floodStatuses: number[] = [];
    let next = 0;
    const creator = async () => {
      while (next < CREATIONS) {
        next++;
        const req = new NextRequest(`${ORIGIN}/api/documents`, {
          method: "POST",
          headers: { cookie: alice, origin: ORIGIN, "content-type": "application/json" },
          body: JSON.stringify({ name: `flood-${next}.pdf`, doctype: "contract" }),
        });
        floodStatuses.push((await documentsRoute.POST(req, {})).status);
      }
    };
    const accountStatuses: number[] = [];
    let flooding = true;
    const reader = async () => {
      while (flooding) {
        const res = await accountRoute.GET(new NextRequest(`${ORIGIN}/api/account`, { headers: { cookie: carol } }), {});
        accountStatuses.push(res.status);
      }
    };
    const reading = reader();
    await Promise.all(Array.from({ length: AT_ONCE }, creator));
    flooding = false;
    await reading;

    const created = floodStatuses.filter((s) => s === 201).length;
    const refused = floodStatuses.filter((s) => s === 429).length;
    // 504: the service did not answer within the deadline even so — a request the budget allowed.
    const timedOut = floodStatuses.filter((s) => s === 504).length;
    expect(floodStatuses).toHaveLength(CREATIONS);
    expect(created + refused + timedOut, `statuses: ${[...new Set(floodStatuses)].join(", ")}`).toBe(CREATIONS);
    // The budget was spent by the first `budget` requests, whatever their outcome; every later one was refused.
    expect(refused).toBe(CREATIONS - budget);
    expect(created + timedOut).toBe(budget);
    // What reached the service is at most what the budget let through: the refused ones never left the app.
    const reached = (await documentsCreatedAtSandbox()) - atSandboxBefore;
    expect(reached).toBeGreaterThanOrEqual(created);
    expect(reached).toBeLessThanOrEqual(budget);
    expect(reached).toBeLessThan(CREATIONS / 2);
    // The other user's budget is their own: none of their requests was refused, and they were answered.
    expect(accountStatuses.length).toBeGreaterThan(0);
    expect(accountStatuses).not.toContain(429);
    expect(accountStatuses).toContain(200);
  }, 300_000);
});
