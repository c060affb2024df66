import fc from "fast-check";
import { REDIRECT_URI } from "../../sandbox/support/sandbox";
import { PARTNER } from "../../sandbox/support/oauth";
import { headerValueArb } from "./arbitraries";

/** A token-endpoint request as it goes on the wire. */
export interface TokenRequest {
  contentType: string | undefined;
  authorization: string | undefined;
  body: string;
}

// oidc-provider's form limit, which the sandbox enforces in front of it.
const TOKEN_BODY_LIMIT = 56 * 1024;

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

/** Parameter values that reach the deeper checks (known clients, real grant types) mixed with junk. */
const paramArb = fc.record(
  {
    grant_type: fc.oneof(
      fc.constantFrom("authorization_code", "refresh_token", "client_credentials", "password", "implicit", ""),
      fc.string({ maxLength: 20 }),
    ),
    code: fc.oneof(fc.base64String({ maxLength: 64 }), fc.string({ unit: "binary", maxLength: 20 })),
    refresh_token: fc.oneof(fc.base64String({ maxLength: 64 }), fc.string({ unit: "binary", maxLength: 20 })),
    redirect_uri: fc.oneof(fc.constant(REDIRECT_URI), fc.webUrl(), fc.string({ maxLength: 20 })),
    client_id: fc.oneof(fc.constantFrom(PARTNER.client_id, "dev-client"), fc.string({ maxLength: 20 })),
    client_secret: fc.oneof(fc.constant(PARTNER.client_secret), fc.string({ maxLength: 20 })),
    code_verifier: fc.string({ maxLength: 64 }),
    scope: fc.string({ maxLength: 40 }),
  },
  { requiredKeys: [] },
);

const formBodyArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 10, arbitrary: paramArb.map((params) => new URLSearchParams(params).toString()) },
  // Repeated parameters, which OAuth forbids (RFC 6749 §3.2).
  { weight: 2, arbitrary: paramArb.map((params) => `${new URLSearchParams(params)}&grant_type=refresh_token&grant_type=authorization_code`) },
  { weight: 2, arbitrary: paramArb.map((params) => JSON.stringify(params)) },
  { weight: 2, arbitrary: fc.constantFrom("%", "%zz", "grant_type=%E0%A4%A", "=&=&", "&&&", "grant_type", "\u0000") },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 80 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 8 * 1024 }).map((extra) => `grant_type=refresh_token&refresh_token=${"r".repeat(TOKEN_BODY_LIMIT + extra)}`) },
);

const tokenContentTypeArb: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("application/x-www-form-urlencoded", "application/x-www-form-urlencoded; charset=utf-8", "APPLICATION/X-WWW-FORM-URLENCODED") },
  { weight: 3, arbitrary: fc.constantFrom(undefined, "application/json", "text/plain", "multipart/form-data; boundary=x", "") },
  { weight: 1, arbitrary: headerValueArb },
);

const tokenAuthorizationArb: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  {
    weight: 4,
    arbitrary: fc.oneof(
      fc.constantFrom(basic(PARTNER.client_id, PARTNER.client_secret), basic("dev-client", ""), "Basic", "Basic !!!", "Basic Og=="),
      fc.tuple(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 })).map(([id, secret]) => basic(id, secret)),
      headerValueArb.map((value) => `Basic ${value}`),
      headerValueArb,
    ),
  },
);

/** Requests no token endpoint may grant: no real code or refresh token is ever in them. */
export const tokenRequestArb: fc.Arbitrary<TokenRequest> = fc.record({
  contentType: tokenContentTypeArb,
  authorization: tokenAuthorizationArb,
  body: formBodyArb,
});

/** Over the form limit, pinned so every run covers it. */
export const hugeTokenRequests: TokenRequest[] = [
  { contentType: "application/x-www-form-urlencoded", authorization: undefined, body: `grant_type=refresh_token&refresh_token=${"r".repeat(1024 * 1024 + 1)}` },
];
