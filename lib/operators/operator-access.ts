import "server-only";
import { notFound } from "next/navigation";
import type { NextRequest } from "next/server";
import { readPageSession } from "@/lib/auth/page-access-token";
import { requireSession } from "@/lib/auth/require-access-token";
import { userKeyFor } from "@/lib/auth/user-key";
import { isDatabaseUnavailable } from "@/lib/db/database-errors";
import { getConfig } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { userRecords, type UserRecords } from "@/lib/operators/user-records";
import type { Operator } from "@/lib/operators/types";

/**
 * Whether a verified email names an operator (OPERATOR_EMAILS, lower-cased by lib/env.ts): compared without regard
 * to case, as mail providers treat addresses. Null (no verified email) never does.
 */
export function isOperatorEmail(operatorEmails: ReadonlySet<string>, verifiedEmail: string | null): boolean {
  return verifiedEmail !== null && operatorEmails.has(verifiedEmail.trim().toLowerCase());
}

/** How long the database's last word that a user is an operator stands in for it while the database does not answer. */
export const KNOWN_OPERATOR_TTL_MS = 24 * 60 * 60_000;

/**
 * The operators this process found in the database, by user key, with when: only operators (a few keys), each
 * forgotten as soon as the database says otherwise.
 */
export function createKnownOperators(now: () => number = Date.now) {
  const known = new Map<string, { email: string; at: number }>();
  return {
    remember(userKey: string, email: string | null) {
      if (email) known.set(userKey, { email, at: now() });
      else known.delete(userKey);
    },
    recall(userKey: string): string | undefined {
      const entry = known.get(userKey);
      return entry && now() - entry.at <= KNOWN_OPERATOR_TTL_MS ? entry.email : undefined;
    },
  };
}
type KnownOperators = ReturnType<typeof createKnownOperators>;

/** This process's. On globalThis: Next's production build loads a module more than once, and every page must share it. */
function knownOperators(): KnownOperators {
  const key = Symbol.for("esign.knownOperators");
  const store = globalThis as unknown as Record<symbol, KnownOperators | undefined>;
  return (store[key] ??= createKnownOperators());
}

/**
 * The operator signed in as `subject`, or null. The email is the one kept at this user's last sign-in, and only when
 * the service marked it verified (lib/operators/user-records.ts). Asked anew on every request: a session that ended
 * (sign-out, "sign out everywhere", back-channel logout) never reaches here, and a change of OPERATOR_EMAILS takes
 * effect at the next start. While the database does not answer, a user this process found to be an operator in the
 * last KNOWN_OPERATOR_TTL_MS still is one (their pages then say the database is unavailable, instead of a 404); for
 * anyone else the database's error is thrown.
 */
export async function operatorOf(
  subject: string,
  records: Pick<UserRecords, "verifiedEmailOfUser"> = userRecords,
  operatorEmails = getConfig().operatorEmails,
  known: KnownOperators = knownOperators(),
): Promise<Operator | null> {
  if (operatorEmails.size === 0) return null;
  const userKey = userKeyFor(getConfig().issuer, subject);
  let email: string | null;
  try {
    email = await records.verifiedEmailOfUser(userKey);
  } catch (error) {
    const recalled = isDatabaseUnavailable(error) ? known.recall(userKey) : undefined;
    if (recalled === undefined) throw error;
    // Still checked against OPERATOR_EMAILS; not remembered again, so the day counts from the database's answer.
    return isOperatorEmail(operatorEmails, recalled) ? { userKey, email: recalled } : null;
  }
  const operator = email && isOperatorEmail(operatorEmails, email) ? { userKey, email } : null;
  known.remember(userKey, operator?.email ?? null);
  return operator;
}

/**
 * The operator behind the page being rendered, or notFound() (Next's 404, as for a page that does not exist) for
 * anyone else: signed out, session ended, not an operator, the session store not answering, or the database not
 * answering about someone this process has not found to be an operator lately (operatorOf).
 */
export async function requireOperator(): Promise<Operator> {
  const operator = await getOperator();
  if (!operator) notFound();
  return operator;
}

/**
 * The operator behind the page being rendered, or null (anyone else, or the session store not answering, or the
 * database as above): for what every page shows, such as the header's link to the operator pages.
 */
export async function getOperator(): Promise<Operator | null> {
  const state = await readPageSession().catch(() => null);
  if (state?.status !== "active") return null;
  return operatorOf(state.record.subject).catch(() => null);
}

/** 404 NOT_FOUND: the answer for an operator route to anyone who is not an operator, signed in or not. */
export function operatorNotFoundError(): AppError {
  return new AppError("NOT_FOUND", 404, "Not found.");
}

/**
 * The same for a route handler: the operator, or AppError 404 for anyone else (never 401 or 403, which would say
 * that the route exists).
 */
export async function requireOperatorForRequest(req: NextRequest): Promise<Operator> {
  const session = await requireSession(req).catch(() => null);
  if (!session) throw operatorNotFoundError();
  const operator = await operatorOf(session.record.subject).catch(() => null);
  if (!operator) throw operatorNotFoundError();
  return operator;
}
