import "server-only";
import type { RedisConnection } from "@/lib/redis/connection";
import { SessionStoreUnavailableError, type SessionEnvelope, type SessionStore, type UpdateOutcome } from "@/lib/session/session-store";

/**
 * Moves the times of a session that still exists; returns its subject and service session (false when it has
 * none) so that every index follows, else nil.
 */
const TOUCH = `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
redis.call('HSET', KEYS[1], 'lastSeenAt', ARGV[1], 'expiresAt', ARGV[2])
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
return redis.call('HMGET', KEYS[1], 'subject', 'oidcSid')`;

/**
 * A refresh's write, conditional: only onto a session that still exists (a delete wins), and, with an owner,
 * only while that owner holds the session's refresh lock (fencing), checked atomically with the write. The
 * session and its lock share a Cluster slot ({id}). Returns the outcome and, when written, the expiry.
 */
const UPDATE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return {'gone'} end
if ARGV[3] ~= '' and redis.call('GET', KEYS[2]) ~= ARGV[3] then return {'lock-lost'} end
redis.call('HSET', KEYS[1], 'sealed', ARGV[1])
if ARGV[2] ~= '' then redis.call('HSET', KEYS[1], 'oidcSid', ARGV[2]) end
return {'written', redis.call('HGET', KEYS[1], 'expiresAt')}`;

/** Removes a session and returns what it held, in one step: a refresh's write cannot fall between the two. */
const TAKE = `
local fields = redis.call('HGETALL', KEYS[1])
redis.call('DEL', KEYS[1])
return fields`;

/** Extends the lock only while `owner` still holds it. */
const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

/** Compare-and-delete: a holder whose lock expired must not delete the next holder's lock. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

const ACTIVE = "esign:sessions";
// The hash tag {id} keeps a session and its lock in one Redis Cluster slot; indexes are separate keys.
const sessionKey = (id: string) => `esign:session:{${id}}`;
const lockKey = (id: string) => `esign:session:{${id}}:lock`;
const subjectKey = (subject: string) => `esign:subject:{${subject}}`;
const oidcSidKey = (sid: string) => `esign:oidc-sid:{${sid}}`;

/**
 * Sessions shared by every instance through Redis: one hash per session that expires with it (PEXPIREAT), sorted
 * sets indexing sessions by subject and by the service's session id (scored by expiry, pruned when read), and
 * the refresh lock. Redis holds no usable token: values are sealed (seal.ts) and key names are hashes.
 */
export function createRedisSessionStore(connection: RedisConnection, maxAgeMs: number): SessionStore {
  async function run<T>(operation: Parameters<RedisConnection["attempt"]>[0]): Promise<T> {
    try {
      return (await connection.attempt(operation)) as T;
    } catch (error) {
      throw new SessionStoreUnavailableError(`session store (Redis): ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
  // No member outlives its session, and no session outlives its absolute lifetime from now: each index key
  // expires that long after its last write, so none lives for ever.
  const indexDeadline = () => Date.now() + maxAgeMs;

  async function idsIn(key: string): Promise<string[]> {
    const now = Date.now();
    return run(async (c) => {
      const [, ids] = await Promise.all([c.zRemRangeByScore(key, "-inf", now), c.zRangeByScore(key, `(${now}`, "+inf")]);
      return ids;
    });
  }

  return {
    kind: "redis",
    get: async (id) => {
      const envelope = envelopeOf(await run<Record<string, string>>((c) => c.hGetAll(sessionKey(id))));
      return envelope && envelope.expiresAt > Date.now() ? envelope : null;
    },
    put: async (id, envelope) => {
      const fields: Record<string, string> = {
        sealed: envelope.sealed,
        subject: envelope.subject,
        createdAt: String(envelope.createdAt),
        lastSeenAt: String(envelope.lastSeenAt),
        expiresAt: String(envelope.expiresAt),
      };
      if (envelope.oidcSid) fields.oidcSid = envelope.oidcSid;
      const deadline = indexDeadline();
      await run((c) =>
        Promise.all([
          c.multi().hSet(sessionKey(id), fields).pExpireAt(sessionKey(id), envelope.expiresAt).exec(),
          c.zAdd(ACTIVE, { score: envelope.expiresAt, value: id }).then(() => c.pExpireAt(ACTIVE, deadline)),
          c.zAdd(subjectKey(envelope.subject), { score: envelope.expiresAt, value: id }).then(() => c.pExpireAt(subjectKey(envelope.subject), deadline)),
          ...(envelope.oidcSid
            ? [c.zAdd(oidcSidKey(envelope.oidcSid), { score: envelope.expiresAt, value: id }).then(() => c.pExpireAt(oidcSidKey(envelope.oidcSid!), deadline))]
            : []),
        ]),
      );
    },
    update: (id, change, lockOwner) =>
      run(async (c) => {
        const [outcome, expiresAt] = (await c.eval(UPDATE, {
          keys: [sessionKey(id), lockKey(id)],
          arguments: [change.sealed, change.oidcSid ?? "", lockOwner ?? ""],
        })) as [UpdateOutcome, string?];
        if (outcome === "written" && change.oidcSid) {
          // A refreshed id_token may name another service session: index the session under it too.
          await c.zAdd(oidcSidKey(change.oidcSid), { score: Number(expiresAt), value: id });
          await c.pExpireAt(oidcSidKey(change.oidcSid), indexDeadline());
        }
        return outcome;
      }),
    touch: async (id, lastSeenAt, expiresAt) => {
      await run(async (c) => {
        const found = (await c.eval(TOUCH, { keys: [sessionKey(id)], arguments: [String(lastSeenAt), String(expiresAt)] })) as [string, string | null] | null;
        if (!found) return;
        const [subject, oidcSid] = found;
        // Every index a lookup goes through, the service session's included: back-channel logout by `sid` must
        // find a session kept alive by requests long after its last refresh.
        await Promise.all([
          c.zAdd(ACTIVE, { score: expiresAt, value: id }, { condition: "XX" }),
          c.zAdd(subjectKey(subject), { score: expiresAt, value: id }, { condition: "XX" }),
          ...(oidcSid ? [c.zAdd(oidcSidKey(oidcSid), { score: expiresAt, value: id }, { condition: "XX" })] : []),
        ]);
      });
    },
    delete: (id) =>
      run(async (c) => {
        const flat = (await c.eval(TAKE, { keys: [sessionKey(id)] })) as string[];
        const fields: Record<string, string> = {};
        for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i]!] = flat[i + 1]!;
        await Promise.all([
          c.zRem(ACTIVE, id),
          ...(fields.subject ? [c.zRem(subjectKey(fields.subject), id)] : []),
          ...(fields.oidcSid ? [c.zRem(oidcSidKey(fields.oidcSid), id)] : []),
        ]);
        return envelopeOf(fields);
      }),
    idsForSubject: (subject) => idsIn(subjectKey(subject)),
    idsForOidcSid: (oidcSid) => idsIn(oidcSidKey(oidcSid)),
    claimOnce: (name, ttlMs) =>
      run(async (c) => (await c.set(`esign:claim:{${name}}`, "1", { condition: "NX", expiration: { type: "PX", value: ttlMs } })) === "OK"),
    releaseClaim: async (name) => {
      await run((c) => c.del(`esign:claim:{${name}}`));
    },
    tryLock: (id, owner, ttlMs) =>
      run(async (c) => (await c.set(lockKey(id), owner, { condition: "NX", expiration: { type: "PX", value: ttlMs } })) === "OK"),
    renewLock: (id, owner, ttlMs) => run(async (c) => Number(await c.eval(RENEW, { keys: [lockKey(id)], arguments: [owner, String(ttlMs)] })) === 1),
    releaseLock: async (id, owner) => {
      await run((c) => c.eval(RELEASE, { keys: [lockKey(id)], arguments: [owner] }));
    },
    countActive: () => run((c) => c.zCount(ACTIVE, `(${Date.now()}`, "+inf")),
    sweep: () => run((c) => c.zRemRangeByScore(ACTIVE, "-inf", Date.now())),
  };
}

/** A session hash's fields as an envelope; null when it holds no session. */
function envelopeOf(fields: Record<string, string>): SessionEnvelope | null {
  if (!fields.sealed || !fields.subject) return null;
  return {
    sealed: fields.sealed,
    subject: fields.subject,
    ...(fields.oidcSid ? { oidcSid: fields.oidcSid } : {}),
    createdAt: Number(fields.createdAt),
    lastSeenAt: Number(fields.lastSeenAt),
    expiresAt: Number(fields.expiresAt),
  };
}
