import "server-only";
import type { NextRequest, NextResponse } from "next/server";
import { decode, encode } from "next-auth/jwt";
import { servesHttps, type RequestLike } from "@/lib/app-origin";
import { getConfig } from "@/lib/env";
import { sessionCookieMaxAgeSeconds, type SessionToken } from "@/lib/auth/session-token";

const BASE_NAME = "authjs.session-token";

/** What both a request's cookies and next/headers' `cookies()` offer. */
export type CookieReader = {
  get(name: string): { value: string } | undefined;
  getAll(): { name: string; value: string }[];
};

/** Auth.js's cookie name: `__Secure-` prefixed when the app is served over https. */
export function sessionCookieName(req: RequestLike): string {
  return servesHttps(req) ? `__Secure-${BASE_NAME}` : BASE_NAME;
}

// Auth.js splits cookies over 4 KB into name.0, name.1, …; ours hold a handle and stay small, but read either form.
function readCookieValue(cookies: CookieReader, name: string): string | undefined {
  const whole = cookies.get(name)?.value;
  if (whole) return whole;
  const chunks = cookies
    .getAll()
    .filter((c) => c.name.startsWith(`${name}.`))
    .sort((a, b) => Number(a.name.slice(name.length + 1)) - Number(b.name.slice(name.length + 1)));
  return chunks.length ? chunks.map((c) => c.value).join("") : undefined;
}

/**
 * Recently decrypted cookies, so that proxy.ts and the route handler behind it (and a session's
 * repeated requests) pay for key derivation and decryption once. Keyed by the cookie's exact value:
 * the same ciphertext always decrypts to the same token. On globalThis for the reason given in
 * lib/session/store-instance.ts.
 */
const DECODED_KEY = Symbol.for("esign.decodedSessions");
const DECODED_LIMIT = 1_000;
const DECODED_TTL_MS = 60_000;
type Decoded = Map<string, { token: SessionToken | null; underOldSecret: boolean; until: number }>;

function decodedSessions(): Decoded {
  const g = globalThis as typeof globalThis & { [DECODED_KEY]?: Decoded };
  g[DECODED_KEY] ??= new Map();
  return g[DECODED_KEY];
}

async function decodeWith(value: string, secret: string | string[], salt: string): Promise<SessionToken | null> {
  try {
    return await decode<SessionToken>({ token: value, secret, salt });
  } catch {
    return null;
  }
}

type DecodedState = { token: SessionToken | null; underOldSecret: boolean };

/**
 * Decrypts the session cookie `name` from `cookies`: null when there is none or it does not decrypt.
 * `underOldSecret` tells that only a secret other than the first (AUTH_SECRET rotation) opened it, so the
 * caller should write it back encrypted under the current one.
 */
async function decodeSessionCookieState(cookies: CookieReader, name: string): Promise<DecodedState> {
  const value = readCookieValue(cookies, name);
  if (!value) return { token: null, underOldSecret: false };
  const cache = decodedSessions();
  const key = `${name}=${value}`;
  const hit = cache.get(key);
  // A copy, so that callers can compare what they get back from rotation by identity and change nothing here.
  if (hit && hit.until > Date.now()) return { token: hit.token && { ...hit.token }, underOldSecret: hit.underOldSecret };
  const [current, ...previous] = getConfig().authSecrets;
  let token = await decodeWith(value, current!, name);
  let underOldSecret = false;
  if (!token && previous.length > 0) {
    token = await decodeWith(value, previous, name);
    underOldSecret = token !== null;
  }
  if (cache.size >= DECODED_LIMIT) cache.delete(cache.keys().next().value!);
  // Never past the cookie's own expiry, which decode() checks.
  const until = Math.min(Date.now() + DECODED_TTL_MS, typeof token?.exp === "number" ? token.exp * 1000 : Infinity);
  cache.set(key, { token, underOldSecret, until });
  return { token: token && { ...token }, underOldSecret };
}

/** The request's session cookie, decrypted, and whether an old secret opened it (see decodeSessionCookieState). */
export function readSessionTokenState(req: NextRequest): Promise<DecodedState> {
  return decodeSessionCookieState(req.cookies, sessionCookieName(req));
}

/** Decrypts the session cookie of a request, or null when there is none or it does not decrypt. */
export async function readSessionToken(req: NextRequest): Promise<SessionToken | null> {
  return (await readSessionTokenState(req)).token;
}

/** Decrypts the session cookie `name` from `cookies`, or null when there is none or it does not decrypt. */
export async function decodeSessionCookie(cookies: CookieReader, name: string): Promise<SessionToken | null> {
  return (await decodeSessionCookieState(cookies, name)).token;
}

/** Encrypts under the first AUTH_SECRET, the one current after a rotation. */
export async function encodeSessionToken(req: NextRequest, token: SessionToken): Promise<string> {
  const name = sessionCookieName(req);
  return encode({ token, secret: getConfig().authSecrets[0]!, salt: name, maxAge: sessionCookieMaxAgeSeconds(getConfig().sessions.maxAgeMs) });
}

/** The request's cookie header with the session cookie (and any chunks) replaced by `value`, or removed (null). */
export function cookieHeaderWithSession(req: NextRequest, value: string | null): string {
  const name = sessionCookieName(req);
  const others = req.cookies.getAll().filter((c) => c.name !== name && !c.name.startsWith(`${name}.`));
  return [...others.map((c) => `${c.name}=${c.value}`), ...(value === null ? [] : [`${name}=${value}`])].join("; ");
}

/** Writes the session cookie with Auth.js's attributes and drops any chunked copies. */
export function setSessionCookie(req: NextRequest, res: NextResponse, value: string): void {
  const name = sessionCookieName(req);
  for (const c of req.cookies.getAll()) if (c.name.startsWith(`${name}.`)) res.cookies.delete(c.name);
  res.cookies.set(name, value, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: name.startsWith("__Secure-"),
    maxAge: sessionCookieMaxAgeSeconds(getConfig().sessions.maxAgeMs),
  });
}

/**
 * Removes the session cookie (and any chunks) from the browser. With the attributes it was set with: a browser
 * ignores an expiry for a `__Secure-` cookie that comes without `Secure`.
 */
export function clearSessionCookie(req: NextRequest, res: NextResponse): void {
  const name = sessionCookieName(req);
  const options = { httpOnly: true, sameSite: "lax" as const, path: "/", secure: name.startsWith("__Secure-"), maxAge: 0 };
  for (const c of req.cookies.getAll()) if (c.name === name || c.name.startsWith(`${name}.`)) res.cookies.set(c.name, "", options);
}
