import "server-only";
import { getLogger } from "@/lib/logging/logger";
import { revokeRefreshTokens } from "@/lib/session/revoke-refresh-tokens";
import type { SessionRecord } from "@/lib/session/session-record";
import type { SessionEnvelope, UpdateOutcome } from "@/lib/session/session-store";

/**
 * How often kept tokens are offered to the store again. Short, because until they land another instance that
 * reads the session from the store sees the spent refresh token; while the store is down each try fails at once.
 */
export const UNSAVED_RETRY_MS = 250;

type Kept = { record: SessionRecord; envelope: SessionEnvelope; save: () => Promise<UpdateOutcome>; retry: NodeJS.Timeout };

const KEPT_KEY = Symbol.for("esign.unsavedTokens");
function kept(): Map<string, Kept> {
  const g = globalThis as typeof globalThis & { [KEPT_KEY]?: Map<string, Kept> };
  return (g[KEPT_KEY] ??= new Map());
}

const log = () => getLogger();
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Keeps tokens the service issued but the store could not take (it was unreachable), since the refresh token
 * they replace is spent: this process serves them to its own requests (unsavedSession) and offers them to the
 * store every UNSAVED_RETRY_MS through `save`, a conditional write. They go once the store took them, once the
 * session was deleted meanwhile (the delete wins: a sign-out, or "Sign out everywhere" through another instance,
 * which never saw this refresh token, so it is revoked here as session-refresh.ts does), at the session's expiry,
 * when it is deleted through this process (dropUnsavedTokens; the sign-out read them through unsavedSession and
 * revokes them itself), and at shutdown after one last try (flushUnsavedTokens).
 */
export function keepUnsavedTokens(id: string, record: SessionRecord, envelope: SessionEnvelope, save: () => Promise<UpdateOutcome>): void {
  dropUnsavedTokens(id);
  if (envelope.expiresAt <= Date.now()) return;
  const retry = setInterval(() => {
    if (kept().get(id)?.retry !== retry) return clearInterval(retry);
    if (envelope.expiresAt <= Date.now()) {
      log().warn({ msg: "refreshed tokens kept in this process dropped: the session expired before the store took them" });
      return dropUnsavedTokens(id);
    }
    save().then(
      async (outcome) => {
        if (kept().get(id)?.retry !== retry) return;
        dropUnsavedTokens(id);
        if (outcome === "written") return log().info({ msg: "refreshed tokens kept in this process are now in the session store" });
        log().info({ msg: `refreshed tokens kept in this process dropped: ${outcome === "gone" ? "the session ended meanwhile, their refresh token is revoked" : "another request holds the refresh lock"}` });
        if (outcome === "gone") await revokeKept(record);
      },
      () => {},
    );
  }, UNSAVED_RETRY_MS);
  retry.unref();
  kept().set(id, { record, envelope, save, retry });
}

/** Sends a kept refresh token of an ended session back to the service (never throws: revokeToken does not). */
async function revokeKept(record: SessionRecord): Promise<void> {
  if (record.refreshToken) await revokeRefreshTokens([record.refreshToken]);
}

/** Tokens this process keeps for session `id`, with its times, unless it has expired meanwhile. */
export function unsavedSession(id: string): { record: SessionRecord; envelope: SessionEnvelope } | undefined {
  const entry = kept().get(id);
  if (!entry) return undefined;
  if (entry.envelope.expiresAt <= Date.now()) {
    dropUnsavedTokens(id);
    return undefined;
  }
  return { record: entry.record, envelope: entry.envelope };
}

/** Forgets the tokens kept for session `id`: it was deleted, or its tokens were written. */
export function dropUnsavedTokens(id: string): void {
  const entry = kept().get(id);
  if (!entry) return;
  clearInterval(entry.retry);
  kept().delete(id);
}

/**
 * One last try for every kept token set, at shutdown (graceful-shutdown.ts): what the store still cannot take is
 * lost with this process, and the count is logged. Resolves how many were saved and lost.
 */
export async function flushUnsavedTokens(): Promise<{ saved: number; lost: number }> {
  const entries = [...kept()];
  let saved = 0;
  await Promise.all(
    entries.map(async ([id, entry]) => {
      dropUnsavedTokens(id);
      try {
        if (entry.envelope.expiresAt <= Date.now()) return;
        const outcome = await entry.save();
        if (outcome === "written") saved += 1;
        else if (outcome === "gone") await revokeKept(entry.record);
      } catch (error) {
        log().warn({ msg: `refreshed tokens lost at shutdown, the session store did not take them: ${message(error)}` });
      }
    }),
  );
  const lost = entries.length - saved;
  if (entries.length > 0) log().info({ msg: `shutdown: ${saved} kept token set(s) written to the session store, ${lost} not` });
  return { saved, lost };
}
