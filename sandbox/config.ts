import { z } from "zod";
import { responseStyles, type ResponseStyle } from "./response-style";
import { DEFAULT_BRAND_NAME } from "../lib/brand/brand";
import { identityStyles, MAX_ACCESS_TOKEN_BYTES, MIN_ACCESS_TOKEN_BYTES, type IdentityStyle } from "./identity-style";

export const authMethods = ["client_secret_post", "client_secret_basic", "none"] as const;
export type AuthMethod = (typeof authMethods)[number];

export interface SandboxConfig {
  authPort: number;
  apiPort: number;
  blobPort: number;
  /** Public URLs; they differ from the ports only behind a reverse proxy (demo deployment). */
  authUrl: string;
  apiUrl: string;
  blobUrl: string;
  /** Lifetimes in seconds. */
  accessTokenTtl: number;
  refreshTokenTtl: number;
  sasTtl: number;
  redirectUris: string[];
  corsOrigins: string[];
  partnerClientId: string;
  partnerClientSecret: string;
  partnerAuthMethod: AuthMethod;
  devClientId: string;
  /** Both clients' display name (`client_name`) on the sign-in, consent and sign-out pages: the app's brand name. */
  clientName: string;
  /** How the API words its answers (see response-style.ts); switchable at runtime via the admin routes. */
  responseStyle: ResponseStyle;
  /** How tokens look (see identity-style.ts); switchable at runtime via the admin routes. */
  identityStyle: IdentityStyle;
  /** Target length of JWT access tokens in identityserver style; null = natural size. */
  accessTokenBytes: number | null;
  /** Where the partner client receives OIDC back-channel logout tokens; switchable at runtime. */
  backchannelLogoutUri: string;
  /** Whether RFC 7009 revocation is published (discovery's `revocation_endpoint`); switchable at runtime. */
  revocationEndpoint: boolean;
  /** One log line per request on stdout; main turns it on, tests keep it off. */
  logRequests: boolean;
}

const portMessage = { error: "must be a port number between 1 and 65535" };
const port = z.coerce.number(portMessage).int(portMessage).min(1, portMessage).max(65535, portMessage);
const secondsMessage = { error: "must be a whole number of seconds greater than 0" };
const seconds = z.coerce.number(secondsMessage).int(secondsMessage).positive(secondsMessage);
const url = z.url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" }).transform((value) => value.replace(/\/+$/, ""));
// The issuer is kept as written: some identity servers publish it with a trailing slash, and the app must cope.
const issuerUrl = z.url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" });
const list = z
  .string()
  .transform((value) => value.split(",").map((item) => item.trim()).filter(Boolean))
  .pipe(z.array(z.url({ error: "must be a comma-separated list of absolute URLs" })).min(1, { error: "must not be empty" }));
const tokenBytesMessage = { error: `must be a whole number of bytes from ${MIN_ACCESS_TOKEN_BYTES} to ${MAX_ACCESS_TOKEN_BYTES}` };
const tokenBytes = z.coerce.number(tokenBytesMessage).int(tokenBytesMessage).min(MIN_ACCESS_TOKEN_BYTES, tokenBytesMessage).max(MAX_ACCESS_TOKEN_BYTES, tokenBytesMessage);
const name = z.string().trim().min(1, { error: "must not be blank" });

/** Env key → config field and its parser. One table, so README and code cannot drift apart. */
const envSchema = {
  SANDBOX_AUTH_PORT: ["authPort", port],
  SANDBOX_API_PORT: ["apiPort", port],
  SANDBOX_BLOB_PORT: ["blobPort", port],
  SANDBOX_AUTH_URL: ["authUrl", issuerUrl],
  SANDBOX_API_URL: ["apiUrl", url],
  SANDBOX_BLOB_URL: ["blobUrl", url],
  SANDBOX_ACCESS_TOKEN_TTL: ["accessTokenTtl", seconds],
  SANDBOX_REFRESH_TOKEN_TTL: ["refreshTokenTtl", seconds],
  SANDBOX_SAS_TTL: ["sasTtl", seconds],
  SANDBOX_REDIRECT_URIS: ["redirectUris", list],
  SANDBOX_CORS_ORIGINS: ["corsOrigins", list],
  SANDBOX_PARTNER_CLIENT_ID: ["partnerClientId", name],
  SANDBOX_PARTNER_CLIENT_SECRET: ["partnerClientSecret", name],
  SANDBOX_PARTNER_AUTH_METHOD: ["partnerAuthMethod", z.enum(authMethods, { error: `must be one of ${authMethods.join(", ")}` })],
  SANDBOX_DEV_CLIENT_ID: ["devClientId", name],
  SANDBOX_CLIENT_NAME: ["clientName", name],
  SANDBOX_RESPONSE_STYLE: ["responseStyle", z.enum(responseStyles, { error: `must be one of ${responseStyles.join(", ")}` })],
  SANDBOX_IDENTITY_STYLE: ["identityStyle", z.enum(identityStyles, { error: `must be one of ${identityStyles.join(", ")}` })],
  SANDBOX_ACCESS_TOKEN_BYTES: ["accessTokenBytes", tokenBytes],
  SANDBOX_BACKCHANNEL_LOGOUT_URI: ["backchannelLogoutUri", url],
  SANDBOX_REVOCATION_ENDPOINT: ["revocationEndpoint", z.enum(["on", "off"], { error: "must be on or off" }).transform((value) => value === "on")],
} as const satisfies Record<string, readonly [keyof SandboxConfig, z.ZodType]>;

export class ConfigError extends Error {}

/** Reads SANDBOX_* variables; collects one message per bad value instead of stopping at the first. */
export function parseEnv(env: Record<string, string | undefined>): Partial<SandboxConfig> {
  const overrides: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, [field, schema]] of Object.entries(envSchema)) {
    const raw = env[key];
    if (raw === undefined || raw === "") continue;
    const result = schema.safeParse(raw);
    if (result.success) overrides[field] = result.data;
    else problems.push(`${key}=${JSON.stringify(raw)}: ${result.error.issues[0]?.message ?? "invalid value"}`);
  }
  // The app and the sandbox started together (demo, e2e) share an environment: the app's brand name is its name here too.
  if (overrides.clientName === undefined && env.BRAND_NAME?.trim()) overrides.clientName = env.BRAND_NAME.trim();
  if (problems.length > 0) throw new ConfigError(`Invalid sandbox configuration:\n  ${problems.join("\n  ")}`);
  return overrides as Partial<SandboxConfig>;
}

/** Fills defaults; public URLs follow the ports unless given explicitly. */
export function resolveConfig(overrides: Partial<SandboxConfig> = {}): SandboxConfig {
  const authPort = overrides.authPort ?? 4000;
  const apiPort = overrides.apiPort ?? 4001;
  const blobPort = overrides.blobPort ?? 4002;
  const config: SandboxConfig = {
    authPort,
    apiPort,
    blobPort,
    authUrl: overrides.authUrl ?? `http://localhost:${authPort}`,
    apiUrl: overrides.apiUrl ?? `http://localhost:${apiPort}`,
    // Azurite answers on the loopback address; path-style URLs carry the account name.
    blobUrl: overrides.blobUrl ?? `http://127.0.0.1:${blobPort}`,
    accessTokenTtl: overrides.accessTokenTtl ?? 3600,
    refreshTokenTtl: overrides.refreshTokenTtl ?? 14 * 24 * 3600,
    sasTtl: overrides.sasTtl ?? 900,
    redirectUris: overrides.redirectUris ?? ["http://localhost:3000/api/auth/callback/esign"],
    corsOrigins: overrides.corsOrigins ?? ["http://localhost:3000"],
    partnerClientId: overrides.partnerClientId ?? "partner-app",
    partnerClientSecret: overrides.partnerClientSecret ?? "partner-app-secret",
    partnerAuthMethod: overrides.partnerAuthMethod ?? "client_secret_post",
    devClientId: overrides.devClientId ?? "dev-client",
    clientName: overrides.clientName ?? DEFAULT_BRAND_NAME,
    responseStyle: overrides.responseStyle ?? "standard",
    identityStyle: overrides.identityStyle ?? "standard",
    accessTokenBytes: overrides.accessTokenBytes ?? null,
    backchannelLogoutUri: overrides.backchannelLogoutUri ?? "http://localhost:3000/api/auth/backchannel-logout",
    revocationEndpoint: overrides.revocationEndpoint ?? true,
    logRequests: overrides.logRequests ?? false,
  };
  if (config.partnerClientId === config.devClientId) {
    throw new ConfigError("Invalid sandbox configuration: partner and dev client ids must differ");
  }
  return config;
}
