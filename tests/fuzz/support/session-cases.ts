import fc from "fast-check";
import { encode } from "next-auth/jwt";
import type { SessionToken } from "@/lib/auth/session-token";
import type { SessionRecord } from "@/lib/session/session-record";
import { FUZZ_AUTH_SECRET } from "./app-env";
import { headerValueArb } from "./arbitraries";
import type { CallerTokens } from "./fuzz-sandbox";

const PLAIN_NAME = "authjs.session-token";
const SECURE_NAME = `__Secure-${PLAIN_NAME}`;
type CookieName = typeof PLAIN_NAME | typeof SECURE_NAME;

/** Sessions that decrypt, by what the service will make of them. */
type SessionKind = keyof CallerTokens | "unknownToken" | "refreshRejected" | "noAccessToken" | "ended" | "legacy";

/**
 * What the route should conclude about the session: a caller whose token the service then judges, or a refusal
 * before the service is asked. A route's test maps callers to its own answers (account: bob → 404, …).
 */
export type SessionOutcome =
  | { caller: keyof CallerTokens | "unknownToken" }
  | { refused: "UNAUTHENTICATED" | "SESSION_EXPIRED" };

export interface SessionCase {
  headers: Record<string, string>;
  outcome: SessionOutcome;
}

/** Every session kind encrypted under both cookie names (the name is the key-derivation salt). */
export type SessionCookies = Record<CookieName, Record<SessionKind, string>>;

const KINDS: SessionKind[] = ["alice", "bob", "noScope", "unknownToken", "refreshRejected", "noAccessToken", "ended", "legacy"];

/** The server-side session record of each kind (`ended` and `legacy` have none). */
function recordFor(kind: SessionKind, tokens: CallerTokens): SessionRecord {
  const now = Math.floor(Date.now() / 1000);
  // An hour ahead, as issued: the proxy (not under test here) would refresh an expiring one first.
  const base: SessionRecord = {
    subject: `fuzz-${kind}`,
    accessTokenExpiresAt: now + 3600,
    accessTokenLifetime: 3600,
    refreshToken: "fuzz-refresh-token",
    device: { browser: "Fuzz", os: "Fuzz" },
  };
  if (kind === "unknownToken") return { ...base, accessToken: "an-access-token-the-service-never-issued" };
  if (kind === "refreshRejected") return { ...base, accessToken: tokens.alice, error: "RefreshRejected" };
  if (kind === "noAccessToken" || kind === "ended" || kind === "legacy") return base;
  return { ...base, accessToken: tokens[kind] };
}

/**
 * Starts a server-side session per kind in the app's store (call after configureAppEnv), then encodes a cookie
 * holding each one's handle; `ended`'s session is ended again at once, and `legacy` is a cookie from before
 * server-side sessions, with the tokens inside and no handle.
 */
export async function encodeSessionCookies(tokens: CallerTokens): Promise<SessionCookies> {
  const { createSession, deleteSession } = await import("@/lib/session/sessions");
  const { storeName } = await import("@/lib/session/session-keys");
  const payloads = Object.fromEntries(
    await Promise.all(
      KINDS.map(async (kind): Promise<[SessionKind, SessionToken]> => {
        const record = recordFor(kind, tokens);
        if (kind === "legacy") return [kind, { accessToken: tokens.alice, refreshToken: "fuzz-refresh-token", accessTokenExpiresAt: record.accessTokenExpiresAt }];
        const handle = await createSession(record);
        if (kind === "ended") await deleteSession(storeName("session", handle));
        return [kind, { sub: record.subject, sessionHandle: handle }];
      }),
    ),
  ) as Record<SessionKind, SessionToken>;
  const encodeAll = async (salt: CookieName) =>
    Object.fromEntries(
      await Promise.all(KINDS.map(async (kind) => [kind, await encode({ token: payloads[kind], secret: FUZZ_AUTH_SECRET, salt })])),
    ) as Record<SessionKind, string>;
  return { [PLAIN_NAME]: await encodeAll(PLAIN_NAME), [SECURE_NAME]: await encodeAll(SECURE_NAME) };
}

function outcomeOf(kind: SessionKind): SessionOutcome {
  if (kind === "refreshRejected" || kind === "noAccessToken" || kind === "legacy") return { refused: "SESSION_EXPIRED" };
  if (kind === "ended") return { refused: "UNAUTHENTICATED" };
  return { caller: kind };
}

const anonymous: SessionOutcome = { refused: "UNAUTHENTICATED" };

// Changes one character that is not the last of its base64url segment: those carry no spare bits, so the
// decoded bytes always change and the JWE's authentication tag must fail.
function tamper(value: string, at: number, replacement: string): string {
  const interior = [...value].flatMap((c, i) => (c !== "." && value[i + 1] !== undefined && value[i + 1] !== "." ? [i] : []));
  const i = interior[at % interior.length] ?? 0;
  const swapped = value[i] === replacement ? (replacement === "A" ? "B" : "A") : replacement;
  return value.slice(0, i) + swapped + value.slice(i + 1);
}

// Auth.js splits big cookies into name.0, name.1, …; the app must read them back in any header order.
function chunked(name: string, value: string, parts: number, sortKeys: number[]): string[] {
  const size = Math.ceil(value.length / parts);
  return Array.from({ length: parts }, (_, i) => ({ pair: `${name}.${i}=${value.slice(i * size, (i + 1) * size)}`, key: sortKeys[i] ?? 0 }))
    .sort((a, b) => a.key - b.key)
    .map(({ pair }) => pair);
}

type CookieVariant = (cookies: SessionCookies, name: CookieName, other: CookieName) => { pairs: string[]; outcome: SessionOutcome };

const kindArb = fc.constantFrom<SessionKind>("alice", "alice", "alice", ...KINDS);
// Mostly right, so most valid-looking sessions get as far as the service.
const mostlyTrue = fc.constantFrom(true, true, true, false);

const cookieValueGarbageArb = fc.oneof(
  { weight: 5, arbitrary: headerValueArb },
  { weight: 3, arbitrary: fc.array(fc.base64String({ maxLength: 40 }), { minLength: 1, maxLength: 6 }).map((s) => s.join(".")) },
  { weight: 2, arbitrary: fc.constantFrom("%", "%E0%A4%A", "%00", "\"quoted\"", "a=b=c", "null", "undefined", "eyJhbGciOiJkaXIifQ....") },
  // Huge values: no size limit applies in-process, so the decoder itself must cope. Kept rare.
  { weight: 1, arbitrary: fc.integer({ min: 64 * 1024, max: 1024 * 1024 }).map((size) => "A".repeat(size)) },
);

const variantArb: fc.Arbitrary<CookieVariant> = fc.oneof(
  { weight: 2, arbitrary: fc.constant<CookieVariant>(() => ({ pairs: [], outcome: anonymous })) },
  {
    weight: 8,
    arbitrary: fc.tuple(kindArb, mostlyTrue, mostlyTrue).map(([kind, rightName, rightSalt]): CookieVariant => (cookies, name, other) => {
      const sentAs = rightName ? name : other;
      const saltedFor = rightSalt ? sentAs : sentAs === name ? other : name;
      return { pairs: [`${sentAs}=${cookies[saltedFor][kind]}`], outcome: rightName && rightSalt ? outcomeOf(kind) : anonymous };
    }),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(kindArb, fc.integer({ min: 2, max: 4 }), fc.array(fc.nat(), { minLength: 4, maxLength: 4 }), fc.boolean())
      .map(([kind, parts, order, dropOne]): CookieVariant => (cookies, name) => {
        const all = chunked(name, cookies[name][kind], parts, order);
        const pairs = dropOne ? all.slice(1) : all;
        return { pairs, outcome: dropOne ? anonymous : outcomeOf(kind) };
      }),
  },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.nat(), fc.constantFrom(..."ABCxyz019-_")).map(([at, c]): CookieVariant => (cookies, name) => ({
      pairs: [`${name}=${tamper(cookies[name].alice, at, c)}`],
      outcome: anonymous,
    })),
  },
  {
    weight: 1,
    arbitrary: fc.nat().map((at): CookieVariant => (cookies, name) => {
      const value = cookies[name].alice;
      return { pairs: [`${name}=${value.slice(0, at % value.length)}`], outcome: anonymous };
    }),
  },
  {
    weight: 3,
    arbitrary: cookieValueGarbageArb.map((value): CookieVariant => (_cookies, name) => ({ pairs: [`${name}=${value}`], outcome: anonymous })),
  },
);

/** Cookies of no concern to the session, which must not change the outcome. */
const neighbourCookiesArb = fc.array(
  fc.tuple(fc.stringMatching(/^[A-Za-z0-9_-]{1,10}$/), headerValueArb.map((v) => v.replace(/;/g, ""))).map(([n, v]) => `f_${n}=${v}`),
  { maxLength: 3 },
);

const forwardedProtoArb = fc.option(fc.oneof(fc.constantFrom("http", "https", "https, http", "HTTPS", "ftp", ""), headerValueArb), {
  nil: undefined,
});

/**
 * Requests as a browser, a replayed cookie or an attacker might send them: no cookie, valid sessions (also
 * chunked, in any order), sessions under the wrong name or encrypted for the other name, tampered, truncated,
 * garbage and huge values, alongside unrelated cookies, an Authorization header the route must ignore, and any
 * x-forwarded-proto (it picks the cookie name when AUTH_URL is unset).
 */
export function sessionCaseArb(cookies: SessionCookies, tokens: CallerTokens): fc.Arbitrary<SessionCase> {
  const ignoredAuthorizationArb = fc.option(fc.oneof(fc.constant(`Bearer ${tokens.alice}`), headerValueArb), { nil: undefined });
  return fc
    .tuple(forwardedProtoArb, variantArb, neighbourCookiesArb, fc.nat(), ignoredAuthorizationArb, headerValueArb)
    .map(([proto, variant, neighbours, at, authorization, secFetchSite]) => {
      const https = (proto?.replace(/^[\t ]+|[\t ]+$/g, "") ?? "http").startsWith("https");
      const [name, other]: [CookieName, CookieName] = https ? [SECURE_NAME, PLAIN_NAME] : [PLAIN_NAME, SECURE_NAME];
      const { pairs, outcome } = variant(cookies, name, other);
      const all = [...neighbours];
      all.splice(at % (all.length + 1), 0, ...pairs);
      const headers: Record<string, string> = { "sec-fetch-site": secFetchSite };
      if (all.length) headers.cookie = all.join("; ");
      if (proto !== undefined) headers["x-forwarded-proto"] = proto;
      if (authorization !== undefined) headers.authorization = authorization;
      return { headers, outcome };
    });
}
