import { isIP } from "node:net";
import { LIMIT_NAMES, RATE_LIMIT_DEFAULTS, limitEnvKey, type Budget, type LimitName } from "@/lib/rate-limit/policies";

/** An address or a CIDR range of the reverse proxies whose X-Forwarded-For is believed. */
export type TrustedProxy = { address: string; prefix: number; family: 4 | 6 };

export type RateLimitConfig = {
  budgets: Record<LimitName, Budget>;
  /** Empty: X-Forwarded-For is ignored and the client address is the TCP peer's. */
  trustedProxies: TrustedProxy[];
};

const MAX_WINDOW_S = 86_400;

/**
 * RATE_LIMIT_<NAME> (`<requests>/<seconds>`) and RATE_LIMIT_TRUSTED_PROXIES (comma-separated addresses or CIDR
 * ranges), each bad value reported on its own line, as lib/env.ts reports every key.
 */
export function parseRateLimitConfig(source: Record<string, string | undefined>): { config: RateLimitConfig; problems: string[] } {
  const problems: string[] = [];
  const budgets = {} as Record<LimitName, Budget>;
  for (const name of LIMIT_NAMES) {
    const key = limitEnvKey(name);
    const raw = source[key]?.trim();
    const { points, durationS } = RATE_LIMIT_DEFAULTS[name];
    budgets[name] = { points, durationS };
    if (!raw) continue;
    const match = /^(\d+)\/(\d+)$/.exec(raw);
    const requests = Number(match?.[1]);
    const seconds = Number(match?.[2]);
    if (!match || requests < 1 || requests > 1_000_000_000 || seconds < 1 || seconds > MAX_WINDOW_S) {
      problems.push(`${key} must be <requests>/<seconds>, e.g. ${points}/${durationS} (requests 1–1000000000, seconds 1–${MAX_WINDOW_S}); got "${raw}"`);
      continue;
    }
    budgets[name] = { points: requests, durationS: seconds };
  }
  const trustedProxies: TrustedProxy[] = [];
  for (const entry of (source.RATE_LIMIT_TRUSTED_PROXIES ?? "").split(",").map((s) => s.trim()).filter(Boolean)) {
    const proxy = parseTrustedProxy(entry);
    if (proxy) trustedProxies.push(proxy);
    else {
      problems.push(
        `RATE_LIMIT_TRUSTED_PROXIES must be a comma-separated list of IP addresses or CIDR ranges of your reverse proxies, e.g. 127.0.0.1,10.0.0.0/8; "${entry}" is neither`,
      );
    }
  }
  return { config: { budgets, trustedProxies }, problems };
}

function parseTrustedProxy(entry: string): TrustedProxy | null {
  const [address = "", prefixText, extra] = entry.split("/");
  const family = isIP(address);
  if (extra !== undefined || (family !== 4 && family !== 6)) return null;
  const max = family === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d+$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) return null;
  return { address, prefix, family };
}
