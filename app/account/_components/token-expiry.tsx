"use client";
import { useSyncExternalStore } from "react";

function subscribeToSeconds(onTick: () => void) {
  const id = setInterval(onTick, 1000);
  return () => clearInterval(id);
}

/** The current time to the second in the browser; null while server-rendering, so hydration matches. */
function useNowSeconds(): number | null {
  return useSyncExternalStore(subscribeToSeconds, () => Math.floor(Date.now() / 1000), () => null);
}

function describeExpiry(expiresAt: number | null, now: number | null): string {
  if (expiresAt === null) return "Unknown";
  if (now === null) return new Date(expiresAt * 1000).toISOString();
  const seconds = expiresAt - now;
  if (seconds <= 0) return "Expired — renewed on your next request";
  if (seconds < 120) return `in ${seconds} s`;
  return `in ${Math.round(seconds / 60)} min`;
}

/** When the access token expires, counting down live: the only part of the session panel that runs in the browser. */
export function TokenExpiry({ expiresAt }: { expiresAt: number | null }) {
  return <>{describeExpiry(expiresAt, useNowSeconds())}</>;
}
