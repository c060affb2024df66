import "server-only";
import { sql } from "drizzle-orm";
import { getDatabase, type OpenDatabase } from "@/lib/db/client";
import { describeDatabaseFailure } from "@/lib/db/database-errors";
import { users } from "@/lib/db/schema";
import { recordDatabaseOperation } from "@/lib/metrics/database";

/** The claims of a verified id_token that the app keeps about a user. */
export type SignInClaims = { readonly [claim: string]: unknown };

/**
 * The email to keep, and to match against OPERATOR_EMAILS: only one the service marked verified (`email_verified`
 * true, as OpenID Connect defines it: a boolean), trimmed and lower-cased; null otherwise. An unverified address
 * could be anyone's: someone could sign up at the service with an operator's address and never prove it.
 */
export function verifiedEmailOf(claims: SignInClaims): string | null {
  if (claims.email_verified !== true || typeof claims.email !== "string") return null;
  const email = claims.email.trim().toLowerCase();
  return email.length > 0 && email.length <= 320 ? email : null;
}

function displayNameOf(claims: SignInClaims): string | null {
  if (typeof claims.name !== "string") return null;
  const name = claims.name.trim().slice(0, 200);
  return name || null;
}

/** The user records of one database (lib/db). */
export function userRecordsFor(open: () => Promise<Pick<OpenDatabase, "db" | "kind">>) {
  return {
    /**
     * Keeps the user beside their key at sign-in: the verified email (or null: an address no longer verified is
     * not kept), the display name, first seen (the first sign-in) and last seen (this one). No token, session id or
     * subject. Resolves once written.
     */
    async recordUserSignIn(userKey: string, claims: SignInClaims, now = new Date()): Promise<void> {
      const started = performance.now();
      const opened = await open();
      try {
        await opened.db
          .insert(users)
          .values({ userKey, email: verifiedEmailOf(claims), displayName: displayNameOf(claims), firstSeenAt: now, lastSeenAt: now })
          .onConflictDoUpdate({
            target: users.userKey,
            set: { email: sql`excluded.email`, displayName: sql`excluded.display_name`, lastSeenAt: sql`greatest(${users.lastSeenAt}, excluded.last_seen_at)` },
          });
        recordDatabaseOperation(opened.kind, "user_sign_in", "ok", (performance.now() - started) / 1000);
      } catch (error) {
        recordDatabaseOperation(opened.kind, "user_sign_in", "error", (performance.now() - started) / 1000);
        // Named by its failure only: the driver's message would carry the values (email, name).
        throw new Error(`user record not written: ${describeDatabaseFailure(error)}`);
      }
    },

    /** The verified email kept for the user, or null (unknown user, or no verified email). */
    async verifiedEmailOfUser(userKey: string): Promise<string | null> {
      const opened = await open();
      const [row] = await opened.db.select({ email: users.email }).from(users).where(sql`${users.userKey} = ${userKey}`);
      return row?.email ?? null;
    },
  };
}

export type UserRecords = ReturnType<typeof userRecordsFor>;

export const userRecords: UserRecords = userRecordsFor(getDatabase);
