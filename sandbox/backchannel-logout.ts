import type { Stats } from "./stats";

/** The partner's registered `backchannel_logout_uri`: configured, changed by the admin route, restored by reset. */
export class BackchannelLogoutUri {
  current: string;

  constructor(private readonly initial: string) {
    this.current = initial;
  }

  reset(): void {
    this.current = this.initial;
  }
}

/** A logout token the provider sent: where to, and the answer's status (null when no answer came). */
export type SentLogoutToken = { jwt: string; uri: string; status: number | null };

const KEPT = 100;

/** The last logout tokens sent, oldest first, so tests can inspect one or replay it. Cleared by reset. */
export class SentLogoutTokens {
  private entries: SentLogoutToken[] = [];

  record(entry: SentLogoutToken): void {
    this.entries.push(entry);
    if (this.entries.length > KEPT) this.entries.splice(0, this.entries.length - KEPT);
  }

  list(): SentLogoutToken[] {
    return [...this.entries];
  }

  reset(): void {
    this.entries = [];
  }
}

type FetchOptions = RequestInit & { dispatcher?: unknown };

/**
 * oidc-provider's `fetch` option. The library routes its requests through a dispatcher that refuses loopback
 * and private addresses (SSRF protection); the app under test listens on loopback, so that dispatcher is dropped.
 * Logout-token deliveries are recorded and counted: sent when the app answered 200 or 204 (the library's own
 * success test), failed otherwise.
 */
export function createLogoutAwareFetch(sent: SentLogoutTokens, stats: Stats) {
  return async (url: string | URL, options: FetchOptions): Promise<Response> => {
    const init: RequestInit = { ...options };
    delete (init as FetchOptions).dispatcher;
    const jwt = init.body instanceof URLSearchParams ? init.body.get("logout_token") : null;
    if (jwt === null) return fetch(url, init);
    const uri = String(url);
    try {
      const response = await fetch(url, init);
      sent.record({ jwt, uri, status: response.status });
      stats.recordBackchannelLogout(response.status === 200 || response.status === 204);
      return response;
    } catch (error) {
      sent.record({ jwt, uri, status: null });
      stats.recordBackchannelLogout(false);
      throw error;
    }
  };
}
