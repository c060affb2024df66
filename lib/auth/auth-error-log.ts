import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { classifyCallbackFailure, describeAuthError } from "@/lib/auth/callback-failure";
import { getLogger } from "@/lib/logging/logger";

type Capture = { error?: unknown };

/**
 * Auth.js hands its errors only to the logger and then answers `?error=Configuration`; the Auth.js
 * route runs its handler inside `captureAuthError` to learn which error that was.
 */
const captures = new AsyncLocalStorage<Capture>();

export async function captureAuthError<T>(run: () => Promise<T>): Promise<{ result: T; error?: unknown }> {
  const capture: Capture = {};
  const result = await captures.run(capture, run);
  return { result, error: capture.error };
}

/**
 * Auth.js's `logger.error`: a stale sign-in link is the person's everyday business (a warning); every
 * other failure is a configuration or service problem and is logged as an error with its cause.
 */
export function logAuthError(error: Error): void {
  const capture = captures.getStore();
  if (capture) capture.error = error;
  if (classifyCallbackFailure(error) === "stale") getLogger().warn(`[auth] sign-in link stale or already used: ${describeAuthError(error)}`);
  else getLogger().error(`[auth][error] ${describeAuthError(error)}`);
}
