import { createLocalJWKSet, jwtVerify } from "jose";
import { errors } from "oidc-provider";
import type { SandboxConfig } from "./config";
import type { IdentityStyleSwitch } from "./identity-style";
import type { SigningKeys } from "./signing-keys";

/** Every scope the partner may hold, so the access token's `scope` lists all granted ones as IdentityServer's does. */
const API_SCOPES = "openid profile email service.api service.app offline_access";

/** An RS256 signature over a 2048-bit key, base64url-encoded, is always this long. */
const RS256_SIGNATURE_CHARS = 342;

const PADDING_ROLE_CHARS = 32;
const TENANT = "example-trading";

type TokenEntities = { oidc?: { entities?: Record<string, { authTime?: number } | undefined> } };
type StructuredToken = { header?: Record<string, unknown>; payload: Record<string, unknown> };

/**
 * The resource indicator the sandbox defaults every authorization to in identityserver style, so the app's
 * token request stays as the spec shows it (no `resource` parameter). Its audience is IdentityServer's static
 * one, `{issuer}/resources`.
 */
export function apiResource(config: SandboxConfig): { indicator: string; audience: string } {
  return { indicator: config.apiUrl, audience: `${config.authUrl}/resources` };
}

/** oidc-provider's `features.resourceIndicators`: the API as a resource server whose token format follows the switch. */
export function resourceIndicatorsFeature(config: SandboxConfig, identity: IdentityStyleSwitch) {
  const { indicator, audience } = apiResource(config);
  return {
    enabled: true,
    // Only authorizations started in identityserver style are bound to the API; standard ones stay as before.
    defaultResource: async (_ctx: unknown, _client: unknown, oneOf?: string | string[]) =>
      oneOf ?? (identity.issuesJwtAccessTokens ? indicator : undefined),
    // Without this the library issues userinfo-only tokens whenever openid is granted.
    useGrantedResource: async () => true,
    // The API is the only resource server: any other `resource` a client sends is refused (invalid_target).
    getResourceServerInfo: async (_ctx: unknown, resource: string) => {
      if (resource !== indicator) throw new errors.InvalidTarget();
      return {
        scope: API_SCOPES,
        audience,
        accessTokenTTL: config.accessTokenTtl,
        accessTokenFormat: identity.issuesJwtAccessTokens ? "jwt" : "opaque",
        jwt: { sign: { alg: "RS256" } },
      };
    },
  };
}

const base64urlLength = (bytes: number) => Math.ceil((bytes * 4) / 3);

/** Role names that make the JSON payload exactly `bytes` longer (each entry adds its quotes and a comma). */
function paddingRoles(bytes: number): string[] {
  const roles: string[] = [];
  let left = bytes;
  while (left > 0) {
    // An entry costs its length + 3 ("",); the first one has no comma but the empty array already cost 0.
    const cost = roles.length === 0 ? 2 : 3;
    const size = Math.max(1, Math.min(PADDING_ROLE_CHARS, left - cost));
    const index = String(roles.length).padStart(3, "0");
    roles.push(`doc-signer-${index}-`.padEnd(size, "x").slice(0, size));
    left -= size + cost;
  }
  return roles;
}

/**
 * `formats.customizers.jwt`: IdentityServer's claim set (`nbf`, `scope` as an array, `amr`, `auth_time`, `idp`,
 * `sid`) in its order, then `tenant` and `role` claims sized so the compact token is `accessTokenBytes` long.
 */
export function customizeJwtAccessToken(identity: IdentityStyleSwitch, keys: SigningKeys) {
  return async (ctx: TokenEntities | undefined, token: { sid?: string }, jwt: StructuredToken) => {
    const { payload } = jwt;
    const entities = ctx?.oidc?.entities ?? {};
    const source = entities.AuthorizationCode ?? entities.RefreshToken;
    const claims: Record<string, unknown> = {
      iss: payload.iss,
      nbf: payload.iat,
      iat: payload.iat,
      exp: payload.exp,
      aud: payload.aud,
      scope: String(payload.scope ?? "").split(" ").filter(Boolean),
      amr: ["pwd"],
      client_id: payload.client_id,
      sub: payload.sub,
      auth_time: source?.authTime,
      idp: "local",
      sid: token.sid,
      jti: payload.jti,
    };
    jwt.payload = claims;
    const target = identity.current.accessTokenBytes;
    if (target === null) return;
    const header = JSON.stringify({ alg: "RS256", typ: "at+jwt", kid: keys.current.kid });
    const fixed = base64urlLength(Buffer.byteLength(header)) + 2 + RS256_SIGNATURE_CHARS;
    const payloadBytes = Math.floor(((target - fixed) * 3) / 4);
    const missing = () => payloadBytes - Buffer.byteLength(JSON.stringify(claims));
    // The tenant claim only where it leaves room for a role, so a target just above the natural size is still met.
    claims.tenant = TENANT;
    if (missing() < PADDING_ROLE_CHARS) delete claims.tenant;
    claims.role = [];
    const roleBytes = missing();
    if (roleBytes > 0) claims.role = paddingRoles(roleBytes);
    else delete claims.role;
  };
}

export type AccessTokenHolder = { accountId: string; scope: string[] };

/** True for a compact JWS (three base64url parts); opaque sandbox tokens have no dots. */
export function looksLikeJwt(value: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(value);
}

/**
 * Validates a JWT access token as a resource server would: signature against any published key, `typ`,
 * issuer, audience and expiry (no clock tolerance, like the opaque path). Throws when any check fails.
 */
export async function verifyJwtAccessToken(value: string, config: SandboxConfig, keys: SigningKeys): Promise<AccessTokenHolder> {
  const { payload } = await jwtVerify(value, createLocalJWKSet(keys.publicJwks() as Parameters<typeof createLocalJWKSet>[0]), {
    issuer: config.authUrl,
    audience: apiResource(config).audience,
    typ: "at+jwt",
    algorithms: ["RS256"],
    requiredClaims: ["sub", "exp"],
  });
  if (typeof payload.exp === "number" && payload.exp <= Math.floor(Date.now() / 1000)) throw new Error("expired");
  const scope = Array.isArray(payload.scope) ? payload.scope.map(String) : String(payload.scope ?? "").split(" ");
  return { accountId: String(payload.sub), scope };
}
