"use client";
import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/** false in the server's render and during hydration, true after: for what only the browser can know. */
export function useHydrated(): boolean {
  return useSyncExternalStore(noSubscription, () => true, () => false);
}
