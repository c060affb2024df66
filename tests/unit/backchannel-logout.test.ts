import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from "jose";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startStandInIssuer, type StandInIssuer } from "../support/stand-in-issuer";
import { setAppEnv } from "../support/app-env";

// The route over a real embedded session store and a stand-in issuer: which sessions a logout token ends.
let standIn: StandInIssuer;
let storeDir: string;
let POST: typeof import("@/app/api/auth/backchannel-logout/route").POST;
let sessions: typeof import("@/lib/session/sessions");
let storeName: typeof import("@/lib/session/session-keys").storeName;

beforeAll(async () => {
  standIn = await startStandInIssuer();
  storeDir = await mkdtemp(join(tmpdir(), "backchannel-logout-"));
  setAppEnv(standIn.url, {
    SESSION_STORE_DIR: storeDir,
  });
  ({ POST } = await import("@/app/api/auth/backchannel-logout/route"));
  sessions = await import("@/lib/session/sessions");
  ({ storeName } = await import("@/lib/session/session-keys"));
});

afterAll(async () => {
  await standIn.close();
  await rm(storeDir, { recursive: true, force: true });
});

const EVENT = "http://schemas.openid.net/event/backchannel-logout";
let counter = 0;

function logoutToken(claims: Record<string, unknown>, key?: CryptoKey) {
  const payload: JWTPayload = { iss: standIn.url, aud: "partner-app", iat: Math.floor(Date.now() / 1000), jti: `jti-${++counter}`, events: { [EVENT]: {} }, ...claims };
  for (const [claim, value] of Object.entries(payload)) if (value === undefined) delete payload[claim];
  return new SignJWT(payload).setProtectedHeader({ alg: "RS256", kid: "k1", typ: "logout+jwt" }).sign(key ?? standIn.signingKey);
}

function post(body: string, contentType = "application/x-www-form-urlencoded", headers: Record<string, string> = {}) {
  return POST(
    new NextRequest("http://localhost:3000/api/auth/backchannel-logout", { method: "POST", headers: { "content-type": contentType, ...headers }, body }),
  );
}
const postToken = async (token: string) => post(new URLSearchParams({ logout_token: token }).toString());

/** A signed-in browser: its handle, or null once its session has ended. */
async function signIn(subject: string, oidcSid: string) {
  const handle = await sessions.createSession({ subject, oidcSid, device: { browser: "Chrome 131", os: "Linux" } });
  return { live: async () => (await sessions.readSessionById(storeName("session", handle))) !== null };
}

let aliceOne: Awaited<ReturnType<typeof signIn>>;
let aliceTwo: Awaited<ReturnType<typeof signIn>>;
let bob: Awaited<ReturnType<typeof signIn>>;

beforeEach(async () => {
  aliceOne = await signIn("alice", "sid-a1");
  aliceTwo = await signIn("alice", "sid-a2");
  bob = await signIn("bob", "sid-b1");
});

const liveness = async () => [await aliceOne.live(), await aliceTwo.live(), await bob.live()];

describe("POST /api/auth/backchannel-logout", () => {
  it("ends the session of the service session named by sid, and answers 200 no-store", async () => {
    const res = await postToken(await logoutToken({ sub: "alice", sid: "sid-a1" }));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await liveness()).toEqual([false, true, true]);
  });

  it("takes the service's post whatever its origin: a server-to-server call, not subject to the same-origin check", async () => {
    const body = new URLSearchParams({ logout_token: await logoutToken({ sub: "bob" }) }).toString();
    const res = await post(body, "application/x-www-form-urlencoded", { origin: "https://auth.example", "sec-fetch-site": "cross-site" });
    expect(res.status).toBe(200);
    expect(await liveness()).toEqual([true, true, false]);
  });

  it("ends every session of the user named by sub alone", async () => {
    expect((await postToken(await logoutToken({ sub: "alice" }))).status).toBe(200);
    expect(await liveness()).toEqual([false, false, true]);
  });

  it("ends nothing when sid and sub name different users, and still answers 200", async () => {
    expect((await postToken(await logoutToken({ sub: "bob", sid: "sid-a1" }))).status).toBe(200);
    expect(await liveness()).toEqual([true, true, true]);
  });

  it("refuses a replayed token with 400 and ends nothing the second time", async () => {
    const token = await logoutToken({ sub: "alice", sid: "sid-a1" });
    expect((await postToken(token)).status).toBe(200);
    const again = await signIn("alice", "sid-a1");
    const replay = await postToken(token);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toEqual({ error: "invalid_request", error_description: expect.stringMatching(/already used/) });
    expect(await again.live()).toBe(true);
  });

  // Each variant of a bad logout token (moved here from e2e/auth/backchannel-logout.spec.ts, which asserted the same
  // over HTTP with tokens the sandbox minted): a claim set to undefined is left out of the token.
  it("refuses a forged, expired, wrongly addressed or malformed token with 400 and ends nothing", async () => {
    const { privateKey } = await generateKeyPair("RS256");
    const now = Math.floor(Date.now() / 1000);
    const refused: Record<string, Promise<string>> = {
      "signed with an unpublished key": logoutToken({ sub: "alice" }, privateKey),
      expired: logoutToken({ sub: "alice", iat: now - 3600, exp: now - 3000 }),
      "issued too long ago": logoutToken({ sub: "alice", iat: now - 3600 }),
      "for another client": logoutToken({ sub: "alice", aud: "other-app" }),
      "from another issuer": logoutToken({ sub: "alice", iss: "https://evil.example" }),
      "carrying a nonce": logoutToken({ sub: "alice", nonce: "n-0S6_WzA2Mj" }),
      "without the logout event": logoutToken({ sub: "alice", events: undefined }),
      "with another event": logoutToken({ sub: "alice", events: { "http://schemas.openid.net/event/other": {} } }),
      "without jti": logoutToken({ sub: "alice", jti: undefined }),
      "naming neither sub nor sid": logoutToken({}),
    };
    for (const [why, token] of Object.entries(refused)) {
      const res = await postToken(await token);
      expect(res.status, why).toBe(400);
      expect(res.headers.get("cache-control"), why).toBe("no-store");
      expect((await res.json()).error, why).toBe("invalid_request");
    }
    expect(await liveness()).toEqual([true, true, true]);
  });

  it("refuses a request without logout_token, or not form-encoded, with 400", async () => {
    expect((await post("")).status).toBe(400);
    expect((await post(JSON.stringify({ logout_token: await logoutToken({ sub: "alice" }) }), "application/json")).status).toBe(400);
    expect(await liveness()).toEqual([true, true, true]);
  });
});
