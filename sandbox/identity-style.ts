import { z } from "zod";

/**
 * How the auth server issues tokens. `standard`: opaque 43-character access tokens. `identityserver`: what
 * IdentityServer (whose /connect/* paths the spec uses) sends: RS256 JWT access tokens (`typ: at+jwt`, `kid`)
 * with its claim set, optionally padded to a given size the way role and tenant claims make them grow.
 */
export const identityStyles = ["standard", "identityserver"] as const;
export type IdentityStyle = (typeof identityStyles)[number];

export const MIN_ACCESS_TOKEN_BYTES = 512;
export const MAX_ACCESS_TOKEN_BYTES = 65_536;

export const accessTokenBytesSchema = z
  .number()
  .int()
  .min(MIN_ACCESS_TOKEN_BYTES)
  .max(MAX_ACCESS_TOKEN_BYTES)
  .nullable();

export interface IdentitySettings {
  style: IdentityStyle;
  /** Target length of a JWT access token; null leaves it at its natural size (about 1 KiB). */
  accessTokenBytes: number | null;
}

/** The current settings: start as configured, changed at runtime by the admin route, restored by reset. */
export class IdentityStyleSwitch {
  current: IdentitySettings;

  constructor(private readonly initial: IdentitySettings) {
    this.current = { ...initial };
  }

  get issuesJwtAccessTokens(): boolean {
    return this.current.style === "identityserver";
  }

  reset(): void {
    this.current = { ...this.initial };
  }
}
