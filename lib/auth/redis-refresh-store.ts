import "server-only";
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, randomUUID } from "node:crypto";
import { TokenRefreshError } from "@/lib/esign/client";
import type { RefreshStore } from "@/lib/auth/refresh-store";
import type { RedisConnection } from "@/lib/redis/connection";
import { recordRefresh, recordRefreshLockWait } from "@/lib/metrics/refresh";

/**
 * After the token call's hard deadline (ESIGN_REQUEST_TIMEOUT_MS, an AbortSignal on the whole call) the
 * holder needs one Redis round trip (≤ 300 ms) to store the result; 2 s more also covers event-loop stalls
 * on a busy instance. So a live holder never loses its lock, and a dead one blocks others for at most this.
 */
export const LOCK_MARGIN_MS = 2_000;
/** Waiters poll the result this often: adds at most this much to their refresh, one cheap script per poll. */
export const POLL_INTERVAL_MS = 25;

/**
 * Atomically: the stored result if there is one; else take the lock if it is free; else report it held.
 * Reading the result in the same step as taking the lock is the winner's re-read: a refresh that finished
 * a moment ago is replayed, never repeated.
 */
const ACQUIRE = `
local result = redis.call('GET', KEYS[2])
if result then return {'result', result} end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return {'acquired'} end
return {'held'}`;

/** Stores the outcome for the grace period (unless another holder already did) and releases our lock only. */
const STORE_AND_RELEASE = `
redis.call('SET', KEYS[2], ARGV[2], 'NX', 'PX', ARGV[3])
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** Compare-and-delete: a holder whose lock expired must not delete the next holder's lock. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** [lock, result] */
type Keys = [string, string];
type Outcome = { ok: true; value: unknown } | { ok: false; reason: TokenRefreshError["reason"]; message: string };

export type RedisRefreshStoreOptions = {
  connection: RedisConnection;
  /** AUTH_SECRET: keys are HMACs of the refresh token under a key derived from it. */
  secret: string;
  /** In-process single-flight in front of Redis: one waiter per token per process. */
  local: RefreshStore;
  /** Longer than the token call's hard deadline (see LOCK_MARGIN_MS). */
  lockTtlMs: number;
  /** How long a finished refresh is replayed (REPLAY_GRACE_MS). */
  graceMs: number;
  pollIntervalMs?: number;
};

/**
 * A refresh store shared by several app instances through Redis, with the same contract as the in-memory
 * one: one token-endpoint call per refresh token across all instances, its outcome replayed for the grace
 * period. Results must be JSON-serialisable. Redis holds no usable token: key names are HMACs and values
 * are AES-256-GCM ciphertexts under a key derived from the old refresh token itself. When Redis fails, each
 * instance falls back to its in-process coordination (see docs/architecture.md, "Several instances").
 */
export function createRedisRefreshStore(options: RedisRefreshStoreOptions): RefreshStore {
  const { connection, local, lockTtlMs, graceMs, pollIntervalMs = POLL_INTERVAL_MS } = options;
  const nameKey = Buffer.from(hkdfSync("sha256", options.secret, "", "esign refresh-store key names v1", 32));

  async function coordinate<T>(refreshToken: string, refresh: () => Promise<T>): Promise<T> {
    const id = createHmac("sha256", nameKey).update(refreshToken).digest("base64url");
    // The hash tag {id} puts both keys of one token in the same Redis Cluster slot, as a script needs.
    const keys: Keys = [`esign:refresh:{${id}}:lock`, `esign:refresh:{${id}}:result`];
    const sealKey = Buffer.from(hkdfSync("sha256", refreshToken, id, "esign refresh-store result v1", 32));
    const owner = randomUUID();
    // A waiter normally sees the result, or the lock expire and takes it over, within one lock TTL.
    const giveUpAt = Date.now() + 2 * lockTtlMs;
    const started = performance.now();
    const waited = () => recordRefreshLockWait((performance.now() - started) / 1000);

    for (let attempt = 0; ; attempt++) {
      let step: string[];
      try {
        step = (await connection.attempt((c) => c.eval(ACQUIRE, { keys, arguments: [owner, String(lockTtlMs)] }))) as string[];
      } catch {
        // Redis down or stalled (warned once by the connection): this process coordinates alone. Still try to
        // publish the outcome, in case a stalled Redis ran our lock command late and now holds our lock.
        return settle(await runHolder(refresh), keys, owner, sealKey);
      }
      if (step[0] === "result" && step[1]) {
        waited();
        recordRefresh(attempt === 0 ? "replayed" : "waited");
        return unwrap<T>(open(step[1], sealKey));
      }
      if (step[0] === "acquired") {
        waited();
        return settle(await runHolder(refresh), keys, owner, sealKey);
      }
      if (Date.now() > giveUpAt) {
        recordRefresh("deferred");
        throw new TokenRefreshError("unavailable", "another instance is still refreshing this session");
      }
      await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
    }
  }

  async function runHolder<T>(refresh: () => Promise<T>): Promise<{ outcome: Outcome } | { transient: unknown }> {
    try {
      return { outcome: { ok: true, value: await refresh() } };
    } catch (error) {
      // A refusal is final for this refresh token and must reach every instance; an outage is not stored,
      // so the next request (on any instance) tries again.
      if (error instanceof TokenRefreshError && error.reason !== "unavailable") {
        return { outcome: { ok: false, reason: error.reason, message: error.message } };
      }
      return { transient: error };
    }
  }

  async function settle<T>(run: { outcome: Outcome } | { transient: unknown }, keys: Keys, owner: string, sealKey: Buffer): Promise<T> {
    try {
      if ("outcome" in run) {
        await connection.attempt((c) => c.eval(STORE_AND_RELEASE, { keys, arguments: [owner, seal(run.outcome, sealKey), String(graceMs)] }));
      } else {
        await connection.attempt((c) => c.eval(RELEASE, { keys: [keys[0]], arguments: [owner] }));
      }
    } catch {
      // The token endpoint has answered: its tokens must be used whether or not Redis took note.
    }
    if ("transient" in run) throw run.transient;
    return unwrap<T>(run.outcome);
  }

  return {
    run<T>(refreshToken: string, refresh: () => Promise<T>): Promise<T> {
      return local.run(refreshToken, () => coordinate(refreshToken, refresh));
    },
  };
}

function unwrap<T>(outcome: Outcome): T {
  if (outcome.ok) return outcome.value as T;
  throw new TokenRefreshError(outcome.reason, outcome.message);
}

/** AES-256-GCM, random 96-bit IV; stored as base64url(iv ‖ tag ‖ ciphertext). */
function seal(outcome: Outcome, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(outcome), "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

function open(sealed: string, key: Buffer): Outcome {
  try {
    const bytes = Buffer.from(sealed, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return JSON.parse(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8")) as Outcome;
  } catch {
    // Tampered or written by an incompatible version: treat like an outage, never as a refusal.
    return { ok: false, reason: "unavailable", message: "the shared refresh result could not be read" };
  }
}
