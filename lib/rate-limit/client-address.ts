import "server-only";
import { BlockList, isIP } from "node:net";
import type { TrustedProxy } from "@/lib/rate-limit/rate-limit-config";

/**
 * The request header through which the HTTP server hook (lib/server/http-hooks.ts) hands the client's address to
 * proxy.ts, route handlers and Server Actions: Next 16 gives them no peer address (`req.ip` is gone), and the
 * X-Forwarded-For that `next start` adds is only filled in when the request has none, so a client could write it.
 * The hook always overwrites this header, so a value sent by the client never survives.
 */
export const CLIENT_ADDRESS_HEADER = "x-esign-client-address";

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) is 10.0.0.1. */
function normalize(address: string): string {
  const trimmed = address.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  return mapped ? mapped[1]! : trimmed;
}

/** A matcher for the trusted proxies' addresses and ranges. */
export function trustedProxyMatcher(proxies: readonly TrustedProxy[]): (address: string) => boolean {
  if (proxies.length === 0) return () => false;
  const list = new BlockList();
  for (const { address, prefix, family } of proxies) list.addSubnet(address, prefix, family === 4 ? "ipv4" : "ipv6");
  return (address) => {
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 4 ? "ipv4" : "ipv6");
  };
}

/**
 * The client's address for per-address budgets. The TCP peer, unless the peer is a trusted proxy: then
 * X-Forwarded-For is read from the right (the hop the trusted proxy itself added) leftwards, skipping further
 * trusted proxies, and the first address not trusted is the client. Entries left of it were written by the client
 * and are never believed. Without trusted proxies X-Forwarded-For is ignored.
 */
export function clientAddressOf(peer: string | undefined, forwardedFor: string | string[] | undefined, isTrusted: (address: string) => boolean): string {
  const peerAddress = normalize(peer ?? "");
  if (!peerAddress || !isTrusted(peerAddress)) return peerAddress || "unknown";
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : (forwardedFor ?? ""))
    .split(",")
    .map(normalize)
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    // A hop that is not an address (a proxy that writes "unknown" or an obfuscated name) ends what can be believed.
    if (isIP(hop) === 0) return peerAddress;
    if (!isTrusted(hop)) return hop;
  }
  // Every hop is a trusted proxy: the leftmost is as close to the client as the chain tells.
  return hops[0] ?? peerAddress;
}

/**
 * The key of a client address's per-address budgets ("sign-in"): an IPv4 address is its own key; an IPv6 address is
 * keyed by its /64, written `2001:db8:1:2::/64`. A single IPv6 client (a home or a server) is routinely given a
 * whole /64 and may pick any address in it, so a per-address key would let it never run out.
 */
export function addressBudgetKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const groups = ipv6Groups(address.split("%")[0]!);
  return `${groups.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, `::` expanded (a trailing dotted IPv4 part counts as two). */
function ipv6Groups(address: string): string[] {
  const [head = "", tail] = address.split("::");
  const parts = (text: string) => (text ? text.split(":").flatMap((p) => (p.includes(".") ? ["0", "0"] : [p])) : []);
  const left = parts(head);
  const right = tail === undefined ? [] : parts(tail);
  return [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
}
