import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startStandInIssuer, type StandInIssuer } from "../support/stand-in-issuer";
import { setAppEnv } from "../support/app-env";

// The user's list of sessions over a real embedded store; the stand-in issuer publishes no revocation endpoint.
let standIn: StandInIssuer;
let storeDir: string;
let sessions: typeof import("@/lib/session/sessions");
let userSessions: typeof import("@/lib/session/user-sessions");
let storeName: typeof import("@/lib/session/session-keys").storeName;

beforeAll(async () => {
  standIn = await startStandInIssuer();
  storeDir = await mkdtemp(join(tmpdir(), "user-sessions-"));
  setAppEnv(standIn.url, {
    SESSION_STORE_DIR: storeDir,
  });
  sessions = await import("@/lib/session/sessions");
  userSessions = await import("@/lib/session/user-sessions");
  ({ storeName } = await import("@/lib/session/session-keys"));
});

afterAll(async () => {
  await standIn.close();
  await rm(storeDir, { recursive: true, force: true });
});

type Browser = { handle: string; id: string; current: () => Promise<{ id: string; record: import("@/lib/session/session-record").SessionRecord }>; live: () => Promise<boolean> };

async function signIn(subject: string, browser: string): Promise<Browser> {
  const handle = await sessions.createSession({ subject, refreshToken: `rt-${browser}`, device: { browser, os: "Linux" } });
  const id = storeName("session", handle);
  const read = () => sessions.readSessionById(id);
  return {
    handle,
    id,
    current: async () => (await read())!,
    live: async () => (await read()) !== null,
  };
}

let chrome: Browser;
let firefox: Browser;
let safari: Browser;
let bobs: Browser;

beforeEach(async () => {
  chrome = await signIn("alice", "Chrome 131");
  firefox = await signIn("alice", "Firefox 133");
  safari = await signIn("alice", "Safari 18");
  bobs = await signIn("bob", "Edge 131");
});

describe("the user's sessions", () => {
  it("lists only the user's sessions, this one first and marked, by store id and never by handle", async () => {
    const listed = await userSessions.listUserSessions(await firefox.current());
    expect(listed.map((s) => [s.browser, s.current])).toEqual([
      ["Firefox 133", true],
      ...listed.slice(1).map((s) => [s.browser, false]),
    ]);
    expect(listed.map((s) => s.id)).toEqual(expect.arrayContaining([chrome.id, firefox.id, safari.id]));
    expect(listed.map((s) => s.id)).not.toContain(bobs.id);
    expect(JSON.stringify(listed)).not.toContain(firefox.handle);
    expect(listed[0]).toMatchObject({ id: firefox.id, os: "Linux", signedInAt: expect.stringMatching(/^\d{4}-/), lastSeenAt: expect.stringMatching(/^\d{4}-/) });
  });

  it("ends one session of the user and leaves the others", async () => {
    await expect(userSessions.endUserSession(await chrome.current(), firefox.id)).resolves.toEqual({ endedCurrent: false });
    expect([await chrome.live(), await firefox.live(), await safari.live(), await bobs.live()]).toEqual([true, false, true, true]);
  });

  it("says SESSION_NOT_FOUND for another user's session or one already ended, and ends nothing", async () => {
    await expect(userSessions.endUserSession(await chrome.current(), bobs.id)).rejects.toMatchObject({ code: "SESSION_NOT_FOUND", status: 404 });
    await userSessions.endUserSession(await chrome.current(), safari.id);
    await expect(userSessions.endUserSession(await chrome.current(), safari.id)).rejects.toMatchObject({ code: "SESSION_NOT_FOUND" });
    expect(await bobs.live()).toBe(true);
  });

  it("signs out everywhere: every session of the user, this one included, and no one else's", async () => {
    const { ended } = await userSessions.endAllUserSessions(await chrome.current());
    expect(ended).toBeGreaterThanOrEqual(3);
    expect([await chrome.live(), await firefox.live(), await safari.live(), await bobs.live()]).toEqual([false, false, false, true]);
    expect(await sessions.sessionsOfSubject("alice")).toEqual([]);
  });
});

describe("the sessions routes", () => {
  it("refuse a cross-site DELETE before reading any session", async () => {
    const { DELETE: deleteAll } = await import("@/app/api/sessions/route");
    const { DELETE: deleteOne } = await import("@/app/api/sessions/[id]/route");
    const headers = { "sec-fetch-site": "cross-site", origin: "https://evil.example" };
    const all = await deleteAll(new NextRequest("http://localhost:3000/api/sessions", { method: "DELETE", headers }), undefined);
    const one = await deleteOne(new NextRequest(`http://localhost:3000/api/sessions/${chrome.id}`, { method: "DELETE", headers }), {
      params: Promise.resolve({ id: chrome.id }),
    });
    for (const res of [all, one]) {
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe("CROSS_SITE_REQUEST");
    }
    expect(await chrome.live()).toBe(true);
  });
});
