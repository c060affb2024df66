import "server-only";
import { getConfig } from "@/lib/env";
import { getLogger } from "@/lib/logging/logger";
import { recordUnreadableSession } from "@/lib/metrics/session-store";
import { createSealer, type Sealer } from "@/lib/session/seal";
import type { SessionRecord } from "@/lib/session/session-record";

let sealer: Sealer | undefined;
const currentSealer = () => (sealer ??= createSealer(getConfig().authSecrets));

/** Seals a session record for the store, bound to its store name `id` (seal.ts). */
export function sealRecord(id: string, record: SessionRecord): string {
  return currentSealer().seal(JSON.stringify(record), id);
}

/**
 * Opens the record sealed for `id`: the record and whether it should be sealed again (a previous AUTH_SECRET or
 * the format before the store name was bound), or null when it does not open. That ends the session, so it is
 * logged and counted (esign_sessions_unreadable_total): an AUTH_SECRET dropped from the list too early signs
 * its users out this way, and a record copied under another id does not open at all.
 */
export function openRecord(id: string, sealed: string): { record: SessionRecord; resealDue: boolean } | null {
  const opened = currentSealer().open(sealed, id);
  if ("refused" in opened) {
    recordUnreadableSession(opened.refused);
    getLogger().warn({
      msg:
        opened.refused === "unknown-key"
          ? "a stored session is sealed under an AUTH_SECRET no longer listed: it ends, its user signs in again"
          : "a stored session did not open (altered, or stored under another id): it ends",
    });
    return null;
  }
  return { record: JSON.parse(opened.plaintext) as SessionRecord, resealDue: opened.resealDue };
}
