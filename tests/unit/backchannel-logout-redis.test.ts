import { SignJWT } from "jose";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { startRedisServer, type RunningRedis } from "../../scripts/lib/redis-server";
import { startStandInIssuer, type StandInIssuer } from "../support/stand-in-issuer";
import { setAppEnv } from "../support/app-env";

// Back-channel logout by `sid` on the Redis store, with a short idle timeout: a session kept alive by requests
// long after its sign-in (no refresh: its tokens last) must still be found through its service session.
const REDIS_PORT = Number(process.env.TEST_SID_REDIS_PORT ?? 4721);
const IDLE_MINUTES = 5;
const EVENT = "http://schemas.openid.net/event/backchannel-logout";

let redis: RunningRedis;
let standIn: StandInIssuer;

beforeAll(async () => {
  redis = await startRedisServer(REDIS_PORT);
  standIn = await startStandInIssuer();
  setAppEnv(standIn.url, {
    REDIS_URL: redis.url,
    SESSION_IDLE_TIMEOUT_MINUTES: String(IDLE_MINUTES),
  });
});

afterAll(async () => {
  vi.useRealTimers();
  const { closeRedisConnection } = await import("@/lib/redis/connection");
  await closeRedisConnection();
  await Promise.all([redis.stop(), standIn.close()]);
});

it("ends a session kept alive by requests past its first idle deadline, found by the logout token's sid", async () => {
  const { POST } = await import("@/app/api/auth/backchannel-logout/route");
  const sessions = await import("@/lib/session/sessions");
  // The clock is moved by hand below; Redis keeps real time, and every deadline it holds is later still.
  vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
  const signedInAt = Date.now();
  const inAnHour = Math.floor(signedInAt / 1000) + 3600;
  const handle = await sessions.createSession({
    subject: "alice",
    oidcSid: "op-session-1",
    accessToken: "long-lived",
    refreshToken: "kept",
    accessTokenExpiresAt: inAnHour,
    accessTokenLifetime: 3600,
    device: { browser: "Chrome 131", os: "Linux" },
  });

  // Requests every few minutes: each read past a minute since the last one moves the idle deadline on.
  const { getSessionStore } = await import("@/lib/session/store-instance");
  const { storeName } = await import("@/lib/session/session-keys");
  for (const minutes of [2, 4, 6]) {
    vi.setSystemTime(signedInAt + minutes * 60_000);
    const readAt = Date.now();
    expect(await sessions.readSession(handle), `signed in at +${minutes} min`).not.toBeNull();
    // The touch is not awaited by the read: wait until it has landed, however long Redis takes.
    await vi.waitFor(async () => expect((await getSessionStore().get(storeName("session", handle)))!.lastSeenAt).toBeGreaterThanOrEqual(readAt), { timeout: 30_000, interval: 50 });
  }

  // Past the sign-in's idle deadline (+5 min), well within the one the requests set (+11 min).
  vi.setSystemTime(signedInAt + 7 * 60_000);
  const token = await new SignJWT({ sid: "op-session-1", events: { [EVENT]: {} }, jti: "jti-sid-1" })
    .setProtectedHeader({ alg: "RS256", kid: "k1", typ: "logout+jwt" })
    .setIssuer(standIn.url)
    .setAudience("partner-app")
    .setIssuedAt()
    .sign(standIn.signingKey);
  const res = await POST(
    new NextRequest("http://localhost:3000/api/auth/backchannel-logout", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ logout_token: token }).toString(),
    }),
  );
  expect(res.status).toBe(200);
  expect(await sessions.readSession(handle), "the session the logout token named has ended").toBeNull();
});
