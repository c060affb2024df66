"use client";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { ApiError, fetchJson } from "@/lib/api-client";
import { accountQueryKey } from "@/lib/queries/account-key";

export type AccountRecord = Record<string, unknown>;

export const accountQueryOptions = queryOptions({
  queryKey: accountQueryKey,
  queryFn: () => fetchJson<AccountRecord>("/api/account"),
  // Retry only what can heal by itself; "customer not found" or "sign in again" will not.
  retry: (failureCount, error) => error instanceof ApiError && error.retryable && failureCount < 2,
});

/** `enabled: false` when the server already knows the answer: the query then runs only on `refetch()`. */
export function useAccount({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...accountQueryOptions, enabled });
}
