import "server-only";
import { QueryClient, dehydrate, type DehydratedState } from "@tanstack/react-query";
import { readPageAccessToken } from "@/lib/auth/page-access-token";
import { AppError } from "@/lib/errors";
import { getUserInfo } from "@/lib/esign/client";
import { accountQueryKey, type AccountFailure } from "@/lib/queries/account-key";

export type PrefetchedAccount = { state: DehydratedState; failure: AccountFailure | null };

/**
 * The account record fetched during the page render, through the same typed client as the route handler,
 * as react-query state for a `HydrationBoundary`: the first paint shows the record, and a refresh still goes
 * through `GET /api/account`. Only the record is handed over, never the token.
 *
 * A refusal the user has to act on (no customer account, session expired, scope not granted) is handed over
 * as `failure`, so the page shows it as rendered instead of asking again. Anything else (outage, timeout) hands
 * over nothing: the browser then asks the route handler, which retries and logs 5xx with a reference.
 */
export async function prefetchAccount(): Promise<PrefetchedAccount> {
  const queryClient = new QueryClient();
  const accessToken = await readPageAccessToken();
  let failure: AccountFailure | null = null;
  if (accessToken) {
    try {
      await queryClient.fetchQuery({ queryKey: accountQueryKey, queryFn: () => getUserInfo(accessToken), retry: false });
    } catch (error) {
      if (error instanceof AppError && error.status < 500) {
        failure = { status: error.status, code: error.code, message: error.userMessage };
      }
    }
  }
  return { state: dehydrate(queryClient), failure };
}
