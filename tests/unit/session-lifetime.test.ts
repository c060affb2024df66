import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

const storeDir = mkdtempSync(join(tmpdir(), "esign-lifetime-test-"));
const MINUTE = 60_000;
let sessions: typeof import("@/lib/session/sessions");

beforeAll(async () => {
  Object.assign(process.env, {
    AUTH_SECRET: "unit-test-secret-0123456789abcdef0123456789",
    SESSION_STORE_DIR: storeDir,
    SESSION_IDLE_TIMEOUT_MINUTES: "30",
    SESSION_MAX_AGE_HOURS: "2",
  });
  sessions = await import("@/lib/session/sessions");
});

afterEach(() => {
  vi.useRealTimers();
});

afterAll(() => rmSync(storeDir, { recursive: true, force: true }));

const newSession = () => sessions.createSession({ subject: "alice", accessToken: "a", device: { browser: "Test", os: "Test" } });

describe("a session's lifetime", () => {
  it("ends after the idle timeout without a request", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const handle = await newSession();
    vi.setSystemTime(Date.now() + 29 * MINUTE);
    expect(await sessions.readSession(handle)).not.toBeNull();
    // That read was activity: the idle timeout runs from it.
    vi.setSystemTime(Date.now() + 29 * MINUTE);
    expect(await sessions.readSession(handle)).not.toBeNull();
    vi.setSystemTime(Date.now() + 31 * MINUTE);
    expect(await sessions.readSession(handle)).toBeNull();
  });

  it("ends at its absolute lifetime, however active", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const handle = await newSession();
    for (let minutes = 20; minutes < 120; minutes += 20) {
      vi.setSystemTime(Date.now() + 20 * MINUTE);
      expect(await sessions.readSession(handle), `${minutes} min after sign-in`).not.toBeNull();
    }
    vi.setSystemTime(Date.now() + 21 * MINUTE);
    expect(await sessions.readSession(handle)).toBeNull();
  });
});

describe("the refresh margin", () => {
  it("is 10 % of the lifetime, at least 2 s (half of a shorter token's life) and at most a minute", async () => {
    const { refreshMarginSeconds } = await import("@/lib/session/session-record");
    expect(refreshMarginSeconds(3600)).toBe(60);
    expect(refreshMarginSeconds(300)).toBe(30);
    expect(refreshMarginSeconds(8)).toBe(2);
    expect(refreshMarginSeconds(3)).toBe(1.5);
    expect(refreshMarginSeconds(0)).toBe(0);
  });
});
