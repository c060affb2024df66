"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";

/**
 * Empties react-query's cache when the signed-in user changes (sign-out included), so that nothing
 * fetched for the previous person is shown to the next one. Rendered by the header, which the server
 * re-renders after sign-in and sign-out.
 */
export function ClearQueryCacheOnUserChange({ userKey }: { userKey: string | null }) {
  const queryClient = useQueryClient();
  const previous = useRef(userKey);
  useEffect(() => {
    if (previous.current === userKey) return;
    previous.current = userKey;
    queryClient.clear();
  }, [userKey, queryClient]);
  return null;
}
