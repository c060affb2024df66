import "server-only";
import { readPageAccessToken } from "@/lib/auth/page-access-token";
import { AppError } from "@/lib/errors";
import { getUserInfo } from "@/lib/esign/client";
import type { InitialAccount } from "@/lib/queries/account-key";

/**
 * The account record fetched during the page render, through the same typed client as the route handler, for
 * the account query's initial data: the first paint shows the record, and a refresh still goes through
 * `GET /api/account`. Only the record is handed over, never the token.
 *
 * A refusal the user has to act on (no customer account, session expired, scope not granted) is handed over
 * as `failure`, so the page shows it as rendered instead of asking again. Anything else (outage, timeout) hands
 * over nothing: the browser then asks the route handler, which retries and logs 5xx with a reference.
 */
export async function fetchAccountForPage(): Promise<InitialAccount> {
  const fetchedAt = Date.now();
  const accessToken = await readPageAccessToken();
  if (!accessToken) return { record: null, failure: null, fetchedAt };
  try {
    return { record: await getUserInfo(accessToken), failure: null, fetchedAt };
  } catch (error) {
    const failure = error instanceof AppError && error.status < 500 ? { status: error.status, code: error.code, message: error.userMessage } : null;
    return { record: null, failure, fetchedAt };
  }
}
