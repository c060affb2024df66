/** `discovery` is the OpenID discovery document: what the app reads at sign-in and its readiness probe polls. */
export type Operation = "authorize" | "token" | "discovery" | "document" | "getuserinfo";

type Counts = Record<string, number>;

export interface StatsSnapshot {
  grants: { authorization_code: number; refresh_token: number };
  tokenErrors: Counts;
  refreshReuse: number;
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
      tokenErrors: {},
      refreshReuse: 0,
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
    }
  }

  recordRefreshReuse(): void {
    this.data.refreshReuse += 1;
  }

  snapshot(): StatsSnapshot {
    return structuredClone(this.data);
  }

  reset(): void {
    this.data = Stats.empty();
  }
}
