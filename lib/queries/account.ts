"use client";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { ApiError, fetchJson } from "@/lib/api-client";
import { accountQueryKey, type InitialAccount } from "@/lib/queries/account-key";

export type AccountRecord = Record<string, unknown>;

export const accountQueryOptions = queryOptions({
  queryKey: accountQueryKey,
  queryFn: () => fetchJson<AccountRecord>("/api/account"),
  // Retry only what can heal by itself; "customer not found" or "sign in again" will not.
  retry: (failureCount, error) => error instanceof ApiError && error.retryable && failureCount < 2,
});

/**
 * The account query, starting from what the server's render fetched: the record as initial data (fresh for the
 * client's staleTime, so no second request), or, after a refusal, no request until `refetch()`.
 */
export function useAccount(initial: InitialAccount) {
  return useQuery({
    ...accountQueryOptions,
    initialData: initial.record ?? undefined,
    initialDataUpdatedAt: initial.fetchedAt,
    enabled: !initial.failure,
  });
}
