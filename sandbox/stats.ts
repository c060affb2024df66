/** `discovery` is the OpenID discovery document: what the app reads at sign-in and its readiness probe polls. */
export type Operation = "authorize" | "token" | "discovery" | "document" | "getuserinfo";

type Counts = Record<string, number>;

export type RevokedKind = "refresh_token" | "access_token";

type GrantType = "authorization_code" | "refresh_token";

/** The latest successful grants kept in `issued` (a demo sandbox runs for days). */
const ISSUED_KEPT = 1000;

export interface StatsSnapshot {
  grants: Record<GrantType, number>;
  /**
   * Each successful grant with when its response was sent (epoch ms), oldest first: tests check that refreshes are
   * a token lifetime apart, whatever the machine's load (one refresh per expiry), instead of counting them.
   */
  issued: { grantType: GrantType; at: number }[];
  tokenErrors: Counts;
  refreshReuse: number;
  /** Tokens revoked at /connect/revocation (RFC 7009), by type. */
  revocations: Record<RevokedKind, number>;
  /** GET /connect/jwks, faulted ones included. */
  jwksRequests: number;
  /** Logout tokens delivered to a client's backchannel_logout_uri (200/204) or not. */
  backchannelLogouts: { sent: number; failed: number };
  operations: Record<Operation, Counts>;
}

function bump(counts: Counts, key: string | number): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/** Counters per operation and HTTP status, so tests can assert how often the app called the service. */
export class Stats {
  private data = Stats.empty();

  private static empty(): StatsSnapshot {
    return {
      grants: { authorization_code: 0, refresh_token: 0 },
      issued: [],
      tokenErrors: {},
      refreshReuse: 0,
      revocations: { refresh_token: 0, access_token: 0 },
      jwksRequests: 0,
      backchannelLogouts: { sent: 0, failed: 0 },
      operations: { authorize: {}, token: {}, discovery: {}, document: {}, getuserinfo: {} },
    };
  }

  record(operation: Operation, status: number): void {
    bump(this.data.operations[operation], status);
  }

  recordToken(grantType: string | undefined, status: number): void {
    this.record("token", status);
    if (status >= 400) bump(this.data.tokenErrors, status);
    else if (status === 200 && (grantType === "authorization_code" || grantType === "refresh_token")) {
      this.data.grants[grantType] += 1;
      this.data.issued.push({ grantType, at: Date.now() });
      if (this.data.issued.length > ISSUED_KEPT) this.data.issued.shift();
    }
  }

  recordRefreshReuse(): void {
    this.data.refreshReuse += 1;
  }

  recordRevocation(kind: RevokedKind): void {
    this.data.revocations[kind] += 1;
  }

  recordJwksRequest(): void {
    this.data.jwksRequests += 1;
  }

  recordBackchannelLogout(delivered: boolean): void {
    this.data.backchannelLogouts[delivered ? "sent" : "failed"] += 1;
  }

  snapshot(): StatsSnapshot {
    return structuredClone(this.data);
  }

  reset(): void {
    this.data = Stats.empty();
  }
}
