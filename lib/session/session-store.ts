import "server-only";

/**
 * What a store keeps per session. Only `sealed` holds secrets (seal.ts); the rest is what the store needs to
 * index, expire and list sessions without decrypting them. `subject` and `oidcSid` are store names (session-keys.ts).
 */
export type SessionEnvelope = {
  sealed: string;
  subject: string;
  oidcSid?: string;
  /** Epoch milliseconds. */
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
};

/** What a refresh or re-seal changes in a stored session. */
export type SessionChange = Pick<SessionEnvelope, "sealed" | "oidcSid">;

export type UpdateOutcome = "written" | "gone" | "lock-lost";

const UNAVAILABLE = Symbol.for("esign.sessionStoreUnavailable");

/** The store could not be reached or answer in time: nobody is signed out, the request gets a 503. */
export class SessionStoreUnavailableError extends Error {
  readonly [UNAVAILABLE] = true;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "SessionStoreUnavailableError";
  }
}

/**
 * Whether `error` is a SessionStoreUnavailableError. Not `instanceof`: the store lives on globalThis, created by
 * whichever of Next's several module instances came first, so its errors may be another copy of the class.
 */
export function isSessionStoreUnavailable(error: unknown): error is SessionStoreUnavailableError {
  return typeof error === "object" && error !== null && (error as { [UNAVAILABLE]?: boolean })[UNAVAILABLE] === true;
}

/**
 * The contract both stores keep (file-session-store.ts, redis-session-store.ts). Ids are store names of session
 * handles. Every method throws SessionStoreUnavailableError when the store cannot answer.
 */
export interface SessionStore {
  readonly kind: "file" | "redis";
  get(id: string): Promise<SessionEnvelope | null>;
  /** Writes a new session whole (at sign-in). */
  put(id: string, envelope: SessionEnvelope): Promise<void>;
  /**
   * Replaces the sealed record (and the service session it names) of a session that still exists, keeping its
   * times: a refresh's result, a re-seal. Conditional, atomically with the write: `gone` when the session was
   * deleted meanwhile (the delete wins: a sign-out is never undone), `lock-lost` when `lockOwner` is given and
   * no longer holds the session's refresh lock (another holder may have redeemed the same refresh token; its
   * result stands). Nothing is written unless it answers `written`.
   */
  update(id: string, change: SessionChange, lockOwner?: string): Promise<UpdateOutcome>;
  /** Moves `lastSeenAt` and `expiresAt` only: never rewrites the sealed tokens, so it cannot undo a refresh. */
  touch(id: string, lastSeenAt: number, expiresAt: number): Promise<void>;
  /**
   * Removes a session; resolves the envelope it removed, read atomically with the removal (null when there was
   * none). What a refresh wrote just before the delete is in it, so its refresh token can still be revoked.
   */
  delete(id: string): Promise<SessionEnvelope | null>;
  idsForSubject(subject: string): Promise<string[]>;
  idsForOidcSid(oidcSid: string): Promise<string[]>;
  /** True the first time `name` is claimed within `ttlMs` (back-channel logout's `jti` replay check). */
  claimOnce(name: string, ttlMs: number): Promise<boolean>;
  /** Gives a claim back, so that `name` can be claimed again at once (what it guarded was not carried out). */
  releaseClaim(name: string): Promise<void>;
  /**
   * Takes the refresh lock of session `id` for `owner` if it is free. The file store, which one process alone
   * may open (store-dir-lock.ts), always grants it and ignores `lockOwner` in `update`: the in-process
   * single-flight in front of it already serialises refreshes.
   */
  tryLock(id: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Extends a lock still held by `owner`; false when it was lost. */
  renewLock(id: string, owner: string, ttlMs: number): Promise<boolean>;
  releaseLock(id: string, owner: string): Promise<void>;
  /** Sessions not yet expired. */
  countActive(): Promise<number>;
  /** Drops expired sessions and claims; returns how many sessions went. */
  sweep(): Promise<number>;
}
