import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createFileSessionStore } from "@/lib/session/file-session-store";
import { createRedisSessionStore } from "@/lib/session/redis-session-store";
import type { SessionEnvelope, SessionStore } from "@/lib/session/session-store";
import { SessionStoreUnavailableError } from "@/lib/session/session-store";
import { connectRedis, type RedisConnection } from "@/lib/redis/connection";
import { getLogger } from "@/lib/logging/logger";
import { lockStoreDir, StoreDirLockedError } from "@/lib/session/store-dir-lock";
import { startRedisServer, type RunningRedis } from "../../scripts/lib/redis-server";

// A real redis-server on loopback, started by this file (Debian package; a missing binary fails the run).
const REDIS_PORT = Number(process.env.TEST_REDIS_PORT ?? 4620);
const MAX_AGE_MS = 60_000;
const quiet = { warn: () => {}, info: () => {} };

let redis: RunningRedis;
let connection: RedisConnection;
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "esign-session-store-test-"));
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  redis = await startRedisServer(REDIS_PORT);
  connection = connectRedis(redis.url, quiet);
});

afterAll(async () => {
  await connection.close();
  await redis.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}-${Math.random().toString(36).slice(2)}`;
function envelope(overrides: Partial<SessionEnvelope> = {}): SessionEnvelope {
  const now = Date.now();
  return { sealed: unique("sealed"), subject: unique("subject"), createdAt: now, lastSeenAt: now, expiresAt: now + 30_000, ...overrides };
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const stores: Array<[string, () => SessionStore]> = [
  ["file", () => createFileSessionStore(tempDir())],
  ["redis", () => createRedisSessionStore(connection, MAX_AGE_MS)],
];

describe.each(stores)("the %s session store", (kind, create) => {
  it("gives back what it was given, and nothing once it is deleted; the delete gives back what it removed", async () => {
    const store = create();
    const id = unique("id");
    const written = envelope({ oidcSid: unique("sid") });
    await store.put(id, written);
    expect(await store.get(id)).toEqual(written);
    expect(await store.delete(id)).toEqual(written);
    expect(await store.get(id)).toBeNull();
    expect(await store.delete(id)).toBeNull();
    expect(await store.idsForSubject(written.subject)).toEqual([]);
    expect(await store.get(unique("never-written"))).toBeNull();
  });

  it("answers nothing for a session past its expiry, and sweeps it", async () => {
    const store = create();
    const id = unique("id");
    const subject = unique("subject");
    // Counted before the write: a count taken after it could come later than the 150 ms expiry on a busy machine.
    const before = await store.countActive();
    // A live session beside it, so the count is seen to keep live sessions while it drops the expired one.
    await store.put(unique("live"), envelope({ subject }));
    await store.put(id, envelope({ subject, expiresAt: Date.now() + 150 }));
    await sleep(300);
    expect(await store.get(id)).toBeNull();
    expect(await store.idsForSubject(subject)).not.toContain(id);
    expect(await store.idsForSubject(subject)).toHaveLength(1);
    expect(await store.countActive()).toBe(before + 1);
    expect(await store.sweep()).toBeGreaterThanOrEqual(kind === "file" ? 1 : 0);
  });

  it("moves the times on touch without rewriting the sealed tokens", async () => {
    const store = create();
    const id = unique("id");
    const written = envelope();
    await store.put(id, written);
    await store.touch(id, written.lastSeenAt + 1_000, written.expiresAt + 1_000);
    expect(await store.get(id)).toEqual({ ...written, lastSeenAt: written.lastSeenAt + 1_000, expiresAt: written.expiresAt + 1_000 });
    // A touch of a session deleted meanwhile does not bring it back.
    await store.delete(id);
    await store.touch(id, Date.now(), Date.now() + 10_000);
    expect(await store.get(id)).toBeNull();
  });

  it("lists the sessions of a subject and of a service session, and only those", async () => {
    const store = create();
    const subject = unique("subject");
    const sid = unique("sid");
    const [a, b, c] = [unique("a"), unique("b"), unique("c")];
    await store.put(a, envelope({ subject, oidcSid: sid }));
    await store.put(b, envelope({ subject }));
    await store.put(c, envelope());
    expect((await store.idsForSubject(subject)).sort()).toEqual([a, b].sort());
    expect(await store.idsForOidcSid(sid)).toEqual([a]);
    await store.delete(a);
    expect(await store.idsForSubject(subject)).toEqual([b]);
    expect(await store.idsForOidcSid(sid)).toEqual([]);
  });

  it("replaces the record of a live session and keeps its times", async () => {
    const store = create();
    const id = unique("id");
    const written = envelope();
    await store.put(id, written);
    await store.touch(id, written.lastSeenAt + 5_000, written.expiresAt + 5_000);
    const sid = unique("sid");
    expect(await store.update(id, { sealed: "refreshed", oidcSid: sid })).toBe("written");
    expect(await store.get(id)).toEqual({ ...written, sealed: "refreshed", oidcSid: sid, lastSeenAt: written.lastSeenAt + 5_000, expiresAt: written.expiresAt + 5_000 });
    // Indexed under the service session a refreshed id_token named.
    expect(await store.idsForOidcSid(sid)).toEqual([id]);
  });

  it("lets a delete between a refresh's read and its write win: the write brings nothing back", async () => {
    const store = create();
    const id = unique("id");
    const subject = unique("subject");
    await store.put(id, envelope({ subject }));
    expect(await store.get(id)).not.toBeNull(); // the refresh reads…
    await store.delete(id); // …"sign out everywhere" deletes…
    expect(await store.update(id, { sealed: "tokens issued meanwhile" }, "lock-owner")).toBe("gone"); // …the refresh writes
    expect(await store.get(id)).toBeNull();
    expect(await store.idsForSubject(subject)).toEqual([]);
    // Racing, in either order: the session ends up deleted.
    for (let i = 0; i < 10; i++) {
      const raced = unique("id");
      await store.put(raced, envelope());
      await Promise.all([store.delete(raced), store.update(raced, { sealed: "late" })]);
      expect(await store.get(raced)).toBeNull();
    }
  });

  it("grants a claim once within its lifetime", async () => {
    const store = create();
    const name = unique("jti");
    // A lifetime a busy machine's second call still falls within, then a wait past it.
    expect(await store.claimOnce(name, 1_000)).toBe(true);
    expect(await store.claimOnce(name, 1_000)).toBe(false);
    await sleep(1_100);
    expect(await store.claimOnce(name, 1_000)).toBe(true);
  });

  it("lets a released claim be claimed again at once", async () => {
    const store = create();
    const name = unique("jti");
    expect(await store.claimOnce(name, 60_000)).toBe(true);
    await store.releaseClaim(name);
    expect(await store.claimOnce(name, 60_000)).toBe(true);
    expect(await store.claimOnce(name, 60_000)).toBe(false);
  });
});

describe("the redis session store", () => {
  const store = () => createRedisSessionStore(connection, MAX_AGE_MS);

  it("lets no key live for ever", async () => {
    const store = createRedisSessionStore(connection, MAX_AGE_MS);
    await store.put(unique("id"), envelope({ oidcSid: unique("sid") }));
    const inspector = createClient({ url: redis.url });
    await inspector.connect();
    try {
      for await (const keys of inspector.scanIterator({ COUNT: 100 })) {
        // -1: no expiry. (-2: expired between the scan and this look, as a short claim may.)
        for (const key of keys) expect(await inspector.pTTL(key), key).not.toBe(-1);
      }
    } finally {
      await inspector.close();
    }
  });


  it("has a refresh lock held by one owner at a time, renewed only by its owner, released only by its owner", async () => {
    const id = unique("id");
    // A lifetime the calls below fit in on a busy machine (they take milliseconds each).
    const lockMs = 2_000;
    expect(await store().tryLock(id, "a", lockMs)).toBe(true);
    expect(await store().tryLock(id, "b", lockMs)).toBe(false);
    expect(await store().renewLock(id, "b", lockMs)).toBe(false);
    await store().releaseLock(id, "b");
    expect(await store().tryLock(id, "b", lockMs)).toBe(false);
    // Renewed past its first lifetime, it is still a's.
    for (let i = 0; i < 4; i++) {
      await sleep(lockMs / 3);
      expect(await store().renewLock(id, "a", lockMs)).toBe(true);
    }
    expect(await store().tryLock(id, "b", lockMs)).toBe(false);
    await store().releaseLock(id, "a");
    expect(await store().tryLock(id, "b", 300)).toBe(true);
  });

  it("counts a reply that waited while this process was busy past the deadline as an answer, not a timeout", async () => {
    await connection.attempt((c) => c.set("busy-test", "value"));
    for (let i = 0; i < 3; i++) {
      const pending = connection.attempt((c) => c.get("busy-test"));
      const busyUntil = Date.now() + 450;
      while (Date.now() < busyUntil) {
        // The event loop is blocked longer than the 300 ms deadline; Redis answers at once.
      }
      await expect(pending).resolves.toBe("value");
    }
  });

  it("refuses a refresh's write once its holder lost the refresh lock (fencing), atomically with the write", async () => {
    const id = unique("id");
    await store().put(id, envelope({ sealed: "before" }));
    // A lifetime the first write still falls within on a busy machine.
    expect(await store().tryLock(id, "first", 1_000)).toBe(true);
    expect(await store().update(id, { sealed: "first's tokens" }, "first")).toBe("written");
    // The first holder stalls past the lock's lifetime; a second takes the lock over.
    await sleep(1_100);
    expect(await store().tryLock(id, "second", 5_000)).toBe(true);
    expect(await store().update(id, { sealed: "second's tokens" }, "second")).toBe("written");
    expect(await store().update(id, { sealed: "first's late write" }, "first")).toBe("lock-lost");
    expect((await store().get(id))?.sealed).toBe("second's tokens");
    // No lock at all (expired, never taken) is no licence either.
    await store().releaseLock(id, "second");
    expect(await store().update(id, { sealed: "unlocked" }, "second")).toBe("lock-lost");
  });

  it("keeps a session found by its service session while requests keep it alive past its first expiry", async () => {
    const id = unique("id");
    const sid = unique("sid");
    // A first expiry the touch still comes before on a busy machine, then a wait past it.
    const first = envelope({ oidcSid: sid, expiresAt: Date.now() + 1_500 });
    await store().put(id, first);
    // Requests touch it (as readSession does), moving its expiry on; it is never written whole again.
    await store().touch(id, Date.now(), Date.now() + 30_000);
    await sleep(1_600);
    expect(await store().get(id)).not.toBeNull();
    expect(await store().idsForOidcSid(sid)).toEqual([id]);
  });

  it("frees the refresh lock when its holder stops renewing", async () => {
    const id = unique("id");
    expect(await store().tryLock(id, "dead-holder", 200)).toBe(true);
    await sleep(300);
    expect(await store().tryLock(id, "next", 200)).toBe(true);
  });
});

describe("the file session store", () => {
  it("finds a session another process wrote to its directory", async () => {
    const dir = tempDir();
    const running = createFileSessionStore(dir);
    const subject = unique("subject");
    await running.put(unique("warm-up"), envelope());
    const written = envelope({ subject });
    const id = unique("id");
    await createFileSessionStore(dir).put(id, written);
    expect(await running.get(id)).toEqual(written);
    expect(await running.idsForSubject(subject)).toEqual([id]);
  });

  it("keeps sessions across a restart of the instance", async () => {
    const dir = tempDir();
    const first = createFileSessionStore(dir);
    const id = unique("id");
    const subject = unique("subject");
    const written = envelope({ subject });
    await first.put(id, written);
    first.close();
    const second = createFileSessionStore(dir);
    expect(await second.get(id)).toEqual(written);
    expect(await second.idsForSubject(subject)).toEqual([id]);
  });

  it("never lets a read see a half-written session", async () => {
    const store = createFileSessionStore(tempDir());
    const id = unique("id");
    const big = (n: number) => envelope({ sealed: String(n).repeat(200_000) });
    await store.put(id, big(1));
    const reads: Array<SessionEnvelope | null> = [];
    await Promise.all([
      (async () => {
        for (let n = 2; n < 12; n++) await store.put(id, big(n % 10));
      })(),
      (async () => {
        for (let i = 0; i < 200; i++) reads.push(await store.get(id));
      })(),
    ]);
    for (const read of reads) {
      expect(read).not.toBeNull();
      expect(new Set(read!.sealed).size, "one digit repeated: a whole envelope").toBe(1);
      expect(read!.sealed.length).toBe(200_000);
    }
  });

  it("tries its start-up scan again after a failure instead of failing for good", async () => {
    const dir = tempDir();
    // A regular file where the sessions folder goes: the scan cannot list it.
    writeFileSync(join(dir, "sessions"), "");
    const store = createFileSessionStore(dir);
    await expect(store.get(unique("id"))).rejects.toBeInstanceOf(SessionStoreUnavailableError);
    rmSync(join(dir, "sessions"));
    const id = unique("id");
    await createFileSessionStore(dir).put(id, envelope());
    expect(await store.get(id)).not.toBeNull();
    expect(await store.countActive()).toBe(1);
  });

  it("skips and logs a session file it cannot read, and indexes the others", async () => {
    const dir = tempDir();
    const subject = unique("subject");
    const id = unique("id");
    await createFileSessionStore(dir).put(id, envelope({ subject }));
    // A symbolic link to itself: listed, but reading it fails (ELOOP), as an unreadable file does.
    symlinkSync(join(dir, "sessions", "unreadable"), join(dir, "sessions", "unreadable"));
    const warn = vi.spyOn(getLogger(), "warn").mockImplementation(() => {});
    try {
      const restarted = createFileSessionStore(dir);
      expect(await restarted.idsForSubject(subject)).toEqual([id]);
      expect(warn.mock.calls.map(([entry]) => (entry as { msg: string }).msg)).toEqual([expect.stringMatching(/skipped an unreadable session file \(sessions:unreadable\)/)]);
    } finally {
      warn.mockRestore();
    }
  });

  it("reports a directory it cannot write as unavailable", async () => {
    // A regular file where the directory should be.
    const file = join(tempDir(), "not-a-directory");
    writeFileSync(file, "");
    const store = createFileSessionStore(file);
    await expect(store.put(unique("id"), envelope())).rejects.toBeInstanceOf(SessionStoreUnavailableError);
  });
});

describe("the session folder's lock", () => {
  /** Another server process holding the folder's lock (an OFD fcntl lock, as lockStoreDir takes it); resolves once held. */
  async function heldByAnotherProcess(dir: string) {
    mkdirSync(dir, { recursive: true });
    const script = `
      const fs = require("node:fs");
      const { tryLock } = require("fs-native-extensions");
      const fd = fs.openSync(process.argv[1], fs.constants.O_RDWR | fs.constants.O_CREAT);
      if (!tryLock(fd)) process.exit(2);
      fs.writeSync(fd, JSON.stringify({ pid: process.pid, host: require("node:os").hostname() }), 0);
      console.log("locked");
      process.stdin.resume();`;
    const child = spawn(process.execPath, ["-e", script, join(dir, "server.lock")], { stdio: ["pipe", "pipe", "inherit"] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("locked") && resolve());
      child.once("exit", (code) => reject(new Error(`the holder exited (${code}) before locking`)));
    });
    return child;
  }

  it("refuses a second server process on the same folder, naming REDIS_URL, until that process is gone (even killed)", async () => {
    const dir = tempDir();
    const other = await heldByAnotherProcess(dir);
    const gone = new Promise((r) => other.once("exit", r));
    try {
      expect(() => lockStoreDir(dir)).toThrow(StoreDirLockedError);
      expect(() => lockStoreDir(dir)).toThrow(new RegExp(`in use by process ${other.pid} on ${hostname()}.*REDIS_URL`));
    } finally {
      other.kill("SIGKILL");
    }
    await gone;
    expect(() => lockStoreDir(dir)).not.toThrow();
    expect(JSON.parse(readFileSync(join(dir, "server.lock"), "utf8"))).toMatchObject({ pid: process.pid, host: hostname() });
  });

  it("stops writing sessions once the folder's lock file was removed: another server may have taken the folder", async () => {
    const dir = tempDir();
    lockStoreDir(dir);
    const store = createFileSessionStore(dir);
    await store.put(unique("id"), envelope());
    rmSync(join(dir, "server.lock"));
    const refused = store.put(unique("id"), envelope());
    await expect(refused).rejects.toBeInstanceOf(SessionStoreUnavailableError);
    await expect(refused).rejects.toThrow(/server\.lock was removed while this process held it/);
    await expect(store.delete(unique("id"))).rejects.toBeInstanceOf(SessionStoreUnavailableError);
  });
});

describe("sessions through the store", () => {
  it("leave no plaintext token in any file or Redis value", async () => {
    const dir = tempDir();
    Object.assign(process.env, { AUTH_SECRET: "unit-test-secret-0123456789abcdef0123456789", SESSION_STORE_DIR: dir });
    const { createSession } = await import("@/lib/session/sessions");
    const secrets = { accessToken: unique("ACCESS"), refreshToken: unique("REFRESH"), idToken: unique("IDTOKEN") };
    await createSession({ subject: "alice@example.com", email: "alice@example.com", ...secrets, device: { browser: "Test", os: "Test" } });
    const files = readdirSync(join(dir, "sessions")).map((f) => readFileSync(join(dir, "sessions", f), "utf8"));
    expect(files.length).toBeGreaterThan(0);

    // The same record through the Redis store, read back raw.
    const redisStore = createRedisSessionStore(connection, MAX_AGE_MS);
    const { createSealer } = await import("@/lib/session/seal");
    const sealed = createSealer(["unit-test-secret-0123456789abcdef0123456789"]).seal(JSON.stringify({ subject: "alice@example.com", ...secrets }), "session-id");
    await redisStore.put(unique("id"), envelope({ sealed }));
    const inspector = createClient({ url: redis.url });
    await inspector.connect();
    const values: string[] = [];
    for await (const keys of inspector.scanIterator({ COUNT: 100 })) {
      for (const key of keys) {
        const type = await inspector.type(key);
        values.push(key);
        if (type === "hash") values.push(...Object.values(await inspector.hGetAll(key)));
        else if (type === "zset") values.push(...(await inspector.zRange(key, 0, -1)));
        else if (type === "string") values.push((await inspector.get(key)) ?? "");
      }
    }
    await inspector.close();
    for (const text of [...files, ...values]) {
      for (const secret of [...Object.values(secrets), "alice@example.com"]) expect(text).not.toContain(secret);
    }
  });
});
