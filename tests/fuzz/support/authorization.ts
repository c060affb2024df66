import fc from "fast-check";
import type { CallerTokens } from "./fuzz-sandbox";
import { headerValueArb } from "./arbitraries";

/** Who the API should see behind an Authorization header; "anonymous" covers every header it must refuse. */
export type Caller = keyof CallerTokens | "anonymous";

export interface AuthorizationCase {
  header: string | undefined;
  caller: Caller;
}

const schemeArb = fc.constantFrom("Bearer", "bearer", "BEARER", "bEaReR");
const gapArb = fc.constantFrom(" ", "  ", "\t", " \t ");

// Replaces one character in the middle of a token with a different token character, so it can no longer match.
function tamper(token: string, at: number, replacement: string): string {
  const i = at % token.length;
  const swapped = token[i] === replacement ? (replacement === "A" ? "B" : "A") : replacement;
  return token.slice(0, i) + swapped + token.slice(i + 1);
}

/**
 * Authorization headers, most carrying a real token in any legal spelling of the Bearer scheme (so the body
 * checks behind authentication get fuzzed too), the rest refused ones: absent, empty, other schemes, the
 * token alone, tampered, truncated, with trailing words, or any header value at all.
 */
export function authorizationArb(tokens: CallerTokens): fc.Arbitrary<AuthorizationCase> {
  const caller = fc.constantFrom<keyof CallerTokens>("alice", "alice", "alice", "bob", "noScope");
  const valid = fc
    .tuple(caller, schemeArb, gapArb)
    .map(([who, scheme, gap]): AuthorizationCase => ({ header: `${scheme}${gap}${tokens[who]}`, caller: who }));
  const refused = fc.oneof(
    fc.constantFrom<string | undefined>(undefined, "", "Bearer", "Bearer ", "Basic YWxpY2U6cGFzc3dvcmQ=", "Bearer null", "Bearer undefined"),
    fc.constantFrom(`Basic ${tokens.alice}`, tokens.alice, `Token ${tokens.alice}`, `Bearer ${tokens.alice} ${tokens.alice}`),
    fc.constantFrom(`Bearer ${tokens.alice},${tokens.bob}`, `Bearer "${tokens.alice}"`, `Bearer ${tokens.alice.slice(0, -4)}`),
    fc
      .tuple(schemeArb, fc.nat(), fc.constantFrom(..."ABCxyz019-_"))
      .map(([scheme, at, c]) => `${scheme} ${tamper(tokens.alice, at, c)}`),
    fc.tuple(schemeArb, headerValueArb).map(([scheme, value]) => `${scheme} ${value}`),
    headerValueArb,
  );
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    { weight: 1, arbitrary: refused.map((header): AuthorizationCase => ({ header, caller: "anonymous" })) },
  );
}
