import "server-only";
import { getConfig } from "@/lib/env";

/**
 * Whether the service's authorization server answers at all (its discovery document), checked
 * before sending the user there: a browser sent to a server that is down sees only its own
 * connection error, with no way back to us.
 */
export async function isAuthServerReachable(timeoutMs = 3_000): Promise<boolean> {
  try {
    const response = await fetch(`${getConfig().authUrl}/.well-known/openid-configuration`, {
      cache: "no-store",
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    return response.status < 500;
  } catch {
    return false;
  }
}
