import { RETRY_DELAYS_MS, waitOrCancel } from "@/lib/upload/backoff";
import { UploadError } from "@/lib/upload/upload-error";

/** Runs `attempt` again after 1 s, 2 s, 4 s while it fails with a transient UploadError; rethrows anything else. */
export async function retryTransient<T>(
  attempt: () => Promise<T>,
  onRetry: (attemptNumber: number, delayMs: number) => void,
  signal?: AbortSignal,
): Promise<T> {
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      const delayMs = RETRY_DELAYS_MS[tries];
      if (!(error instanceof UploadError && error.transient) || delayMs === undefined) throw error;
      onRetry(tries + 1, delayMs);
      await waitOrCancel(delayMs, signal);
    }
  }
}
