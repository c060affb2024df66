import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/env";
import { addressBudgetKey, clientAddressOf, trustedProxyMatcher } from "@/lib/rate-limit/client-address";
import { parseRateLimitConfig } from "@/lib/rate-limit/rate-limit-config";

const trusted = (list: string) => trustedProxyMatcher(parseRateLimitConfig({ RATE_LIMIT_TRUSTED_PROXIES: list }).config.trustedProxies);

describe("the client address for per-address budgets", () => {
  it("is the TCP peer, whatever X-Forwarded-For says, when no proxy is trusted", () => {
    const none = trustedProxyMatcher([]);
    expect(clientAddressOf("203.0.113.7", "198.51.100.1", none)).toBe("203.0.113.7");
    expect(clientAddressOf("::ffff:203.0.113.7", undefined, none)).toBe("203.0.113.7");
    expect(clientAddressOf(undefined, "198.51.100.1", none)).toBe("unknown");
  });

  it("is the peer when the peer is not a trusted proxy, even with trusted proxies configured", () => {
    expect(clientAddressOf("203.0.113.7", "198.51.100.1", trusted("127.0.0.1"))).toBe("203.0.113.7");
  });

  it("behind a trusted proxy, is the rightmost untrusted hop: what a client writes on the left is never believed", () => {
    const proxies = trusted("127.0.0.1,10.0.0.0/8");
    // nginx appends the address it saw: the client wrote "1.2.3.4" itself.
    expect(clientAddressOf("127.0.0.1", "1.2.3.4, 198.51.100.9", proxies)).toBe("198.51.100.9");
    // Two trusted hops (a balancer, then nginx).
    expect(clientAddressOf("::ffff:127.0.0.1", "1.2.3.4, 198.51.100.9, 10.1.2.3", proxies)).toBe("198.51.100.9");
    expect(clientAddressOf("127.0.0.1", ["1.2.3.4", "2001:db8::5"], proxies)).toBe("2001:db8::5");
    // Every hop trusted: the leftmost; no header: the proxy itself; garbage: the proxy itself.
    expect(clientAddressOf("127.0.0.1", "10.0.0.5, 10.0.0.6", proxies)).toBe("10.0.0.5");
    expect(clientAddressOf("127.0.0.1", undefined, proxies)).toBe("127.0.0.1");
    expect(clientAddressOf("127.0.0.1", "1.2.3.4, unknown", proxies)).toBe("127.0.0.1");
  });
});

describe("the key of a per-address budget", () => {
  it("is an IPv4 address itself, and an IPv6 address's /64 however the address is written", () => {
    expect(addressBudgetKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressBudgetKey("203.0.113.8")).toBe("203.0.113.8");
    const key = "2001:db8:1:2::/64";
    for (const address of ["2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:0DB8:0001:0002:0:0:0:9", "2001:db8:1:2:a:b:1.2.3.4", "2001:db8:1:2::7%eth0"]) {
      expect(addressBudgetKey(address), address).toBe(key);
    }
    expect(addressBudgetKey("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(addressBudgetKey("::1")).toBe("0:0:0:0::/64");
    expect(addressBudgetKey("2001:db8::")).toBe("2001:db8:0:0::/64");
    expect(addressBudgetKey("fe80::1:2:3:4")).toBe("fe80:0:0:0::/64");
    expect(addressBudgetKey("unknown")).toBe("unknown");
  });
});

describe("the rate-limit settings", () => {
  const base = { AUTH_SECRET: "unit-test-secret-0123456789abcdef0123456789" };

  it("take a budget as <requests>/<seconds> and keep the defaults for the rest", () => {
    const config = parseConfig({ ...base, RATE_LIMIT_DOCUMENTS_CREATE: "10/60", RATE_LIMIT_TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/8, ::1" });
    expect(config.rateLimits.budgets["documents-create"]).toEqual({ points: 10, durationS: 60 });
    expect(config.rateLimits.budgets["document-events"]).toEqual({ points: 2000, durationS: 600 });
    expect(config.rateLimits.trustedProxies.map((p) => `${p.address}/${p.prefix}`)).toEqual(["127.0.0.1/32", "10.0.0.0/8", "::1/128"]);
  });

  it("refuse a bad budget or proxy, naming the variable and the value", () => {
    expect(() => parseConfig({ ...base, RATE_LIMIT_ACCOUNT: "lots", RATE_LIMIT_TRUSTED_PROXIES: "nginx.internal,10.0.0.0/33" })).toThrow(
      [
        `RATE_LIMIT_ACCOUNT must be <requests>/<seconds>, e.g. 300/600 (requests 1–1000000000, seconds 1–86400); got "lots"`,
        `RATE_LIMIT_TRUSTED_PROXIES must be a comma-separated list of IP addresses or CIDR ranges of your reverse proxies, e.g. 127.0.0.1,10.0.0.0/8; "nginx.internal" is neither`,
        `RATE_LIMIT_TRUSTED_PROXIES must be a comma-separated list of IP addresses or CIDR ranges of your reverse proxies, e.g. 127.0.0.1,10.0.0.0/8; "10.0.0.0/33" is neither`,
      ].join("\n  - "),
    );
    expect(() => parseConfig({ ...base, RATE_LIMIT_SIGN_IN: "0/60" })).toThrow(/RATE_LIMIT_SIGN_IN must be <requests>\/<seconds>/);
  });
});
