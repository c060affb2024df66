"use client";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { ApiError, fetchJson } from "@/lib/api-client";

export type AccountRecord = Record<string, unknown>;

export const accountQueryOptions = queryOptions({
  queryKey: ["account"],
  queryFn: () => fetchJson<AccountRecord>("/api/account"),
  // Retry only what can heal by itself; "customer not found" or "sign in again" will not.
  retry: (failureCount, error) => error instanceof ApiError && error.retryable && failureCount < 2,
});

export function useAccount() {
  return useQuery(accountQueryOptions);
}
