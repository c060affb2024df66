import type { Stats } from "./stats";

/**
 * Whether the auth server publishes RFC 7009 revocation (discovery's `revocation_endpoint` and
 * `/connect/revocation`): configured, switched by the admin route, restored by reset. Off, it behaves like the
 * spec's service, which names no revocation endpoint.
 */
export class RevocationEndpoint {
  published: boolean;

  constructor(private readonly initial: boolean) {
    this.published = initial;
  }

  reset(): void {
    this.published = this.initial;
  }
}

type RevocableToken = { kind: string; jti: string; clientId: string };

/**
 * What was revoked at /connect/revocation, so a test can tell "revoked by the app" from "gone for another
 * reason". Values of opaque tokens are their ids. Bounded like issued-tokens.ts; kept across resets.
 */
export class Revocations {
  private readonly values = new Set<string>();

  constructor(
    private readonly stats: Stats,
    private readonly limit = 50_000,
  ) {}

  /**
   * oidc-provider's `features.revocation.allowedPolicy`: a client revokes only its own tokens (another's are
   * ignored, as RFC 7009 §2.2 allows), and each revocation it goes ahead with is counted.
   */
  readonly allowedPolicy = async (_ctx: unknown, client: { clientId: string }, token: RevocableToken): Promise<boolean> => {
    if (token.clientId !== client.clientId) return false;
    if (token.kind === "RefreshToken" || token.kind === "AccessToken") {
      this.stats.recordRevocation(token.kind === "RefreshToken" ? "refresh_token" : "access_token");
      if (this.values.size >= this.limit) this.values.delete(this.values.values().next().value ?? "");
      this.values.add(token.jti);
    }
    return true;
  };

  has(value: string): boolean {
    return this.values.has(value);
  }
}
