import "server-only";
import { notFound } from "next/navigation";
import type { NextRequest } from "next/server";
import { readPageSession } from "@/lib/auth/page-access-token";
import { requireSession } from "@/lib/auth/require-access-token";
import { userKeyFor } from "@/lib/auth/user-key";
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

/**
 * The operator signed in as `subject`, or null. The email is the one kept at this user's last sign-in, and only when
 * the service marked it verified (lib/operators/user-records.ts). Asked anew on every request: a session that ended
 * (sign-out, "sign out everywhere", back-channel logout) never reaches here, and a change of OPERATOR_EMAILS takes
 * effect at the next start.
 */
export async function operatorOf(subject: string, records: Pick<UserRecords, "verifiedEmailOfUser"> = userRecords, operatorEmails = getConfig().operatorEmails): Promise<Operator | null> {
  if (operatorEmails.size === 0) return null;
  const userKey = userKeyFor(getConfig().issuer, subject);
  const email = await records.verifiedEmailOfUser(userKey);
  return email && isOperatorEmail(operatorEmails, email) ? { userKey, email } : null;
}

/**
 * The operator behind the page being rendered, or notFound() (Next's 404, as for a page that does not exist) for
 * anyone else: signed out, session ended, not an operator, or the session store or database not answering.
 */
export async function requireOperator(): Promise<Operator> {
  const operator = await getOperator();
  if (!operator) notFound();
  return operator;
}

/**
 * The operator behind the page being rendered, or null (anyone else, or the session store or database not
 * answering): for what every page shows, such as the header's link to the operator pages.
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
