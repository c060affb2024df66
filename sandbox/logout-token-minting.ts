import { generateKeyPair, randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { SignJWT, type JWTPayload, type KeyInput } from "jose";
import { z } from "zod";
import type { SandboxConfig } from "./config";
import type { SigningKeys } from "./signing-keys";
import { listUsers } from "./users";

export const BACKCHANNEL_LOGOUT_EVENT = "http://schemas.openid.net/event/backchannel-logout";

const claim = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

/**
 * Body of POST /_sandbox/logout-token. Each claim overrides the default; null leaves it out (a token without
 * `jti` or `events`, for instance). `signWith: "stranger"` signs with a key the sandbox never published.
 */
export const logoutTokenRequestSchema = z
  .object({
    sub: claim(z.string()),
    sid: claim(z.string()),
    aud: claim(z.union([z.string(), z.array(z.string())])),
    iss: claim(z.string()),
    iat: claim(z.number().int()),
    exp: claim(z.number().int()),
    jti: claim(z.string()),
    events: claim(z.record(z.string(), z.unknown())),
    nonce: claim(z.string()),
    signWith: z.enum(["sandbox", "stranger"]).default("sandbox"),
  })
  .strict();

export type LogoutTokenRequest = z.infer<typeof logoutTokenRequestSchema>;

const LOGOUT_TOKEN_TTL = 120;

/** Logout tokens made to order for negative tests; the provider's own ones are sent at sign-out. */
export class LogoutTokenMinter {
  private stranger?: Promise<{ key: KeyInput; kid: string }>;

  constructor(
    private readonly config: SandboxConfig,
    private readonly keys: SigningKeys,
  ) {}

  async mint(request: LogoutTokenRequest): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const { signWith, ...overrides } = request;
    // Without sub or sid the token names the first user, so the default is a valid token.
    const namesSomeone = overrides.sub !== undefined || overrides.sid !== undefined;
    const defaults: JWTPayload = {
      iss: this.config.authUrl,
      aud: this.config.partnerClientId,
      iat: now,
      exp: now + LOGOUT_TOKEN_TTL,
      jti: randomUUID(),
      events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
      ...(namesSomeone ? {} : { sub: listUsers()[0]?.id }),
    };
    const claims = Object.fromEntries(
      Object.entries({ ...defaults, ...overrides }).filter(([, value]) => value !== null && value !== undefined),
    );
    const { key, kid } = signWith === "stranger" ? await this.strangerKey() : await this.sandboxKey();
    return new SignJWT(claims).setProtectedHeader({ alg: "RS256", typ: "logout+jwt", kid }).sign(key);
  }

  private async sandboxKey(): Promise<{ key: KeyInput; kid: string }> {
    return { key: this.keys.current, kid: this.keys.current.kid };
  }

  private strangerKey(): Promise<{ key: KeyInput; kid: string }> {
    this.stranger ??= promisify(generateKeyPair)("rsa", { modulusLength: 2048 }).then(({ privateKey }) => ({
      key: privateKey,
      kid: `stranger-${randomUUID()}`,
    }));
    return this.stranger;
  }
}
