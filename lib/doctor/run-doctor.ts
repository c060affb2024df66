import "server-only";
import { ConfigError, parseConfig, SANDBOX_DEFAULTS } from "@/lib/env";
import { checkClientCredentials, checkRedirectUri, checkScopes } from "@/lib/doctor/client-checks";
import { checkClock, checkDiscovery, checkEndpoints, checkJwks } from "@/lib/doctor/discovery-checks";
import { contextFrom } from "@/lib/doctor/context";
import { checkBackups } from "@/lib/doctor/backup-check";
import { checkBrand } from "@/lib/doctor/brand-check";
import { checkBackchannelLogout, checkRevocation } from "@/lib/doctor/logout-checks";
import { redact, type CheckResult } from "@/lib/doctor/report";
import { checkApi, checkStorageCors } from "@/lib/doctor/service-checks";

const skipped = (id: string, title: string, reason: string): CheckResult => ({ id, title, status: "skip", detail: reason });

/**
 * Checks a configuration end to end before any user signs in: configuration, the brand shown, discovery, keys, client
 * credentials, redirect URI, scopes, logout support (back-channel logout, token revocation), API, storage
 * CORS and clock. Creates nothing and needs no user.
 */
export async function runDoctor(env: Record<string, string | undefined>): Promise<CheckResult[]> {
  const results = await runChecks(env);
  // Nothing the checks write contains a secret; text echoed from a server passes through here all the same.
  const secrets = [env.ESIGN_CLIENT_SECRET, env.AUTH_SECRET, SANDBOX_DEFAULTS.ESIGN_CLIENT_SECRET, env.BACKUP_ENCRYPTION_KEY, env.AWS_SECRET_ACCESS_KEY, env.AZURE_STORAGE_CONNECTION_STRING];
  return results.map((r) => ({ ...r, detail: redact(r.detail, secrets), ...(r.fix ? { fix: redact(r.fix, secrets) } : {}) }));
}

async function runChecks(env: Record<string, string | undefined>): Promise<CheckResult[]> {
  let config;
  try {
    config = parseConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return [
      {
        id: "config",
        title: "Configuration",
        status: "fail",
        detail: error.problems.join("; "),
        fix: "Correct the keys named above (docs/configuration.md); the app refuses to start with them too.",
      },
      skipped("service", "Service checks", "need a valid configuration"),
    ];
  }
  const ctx = contextFrom(config, env);
  const results: CheckResult[] = [
    {
      id: "config",
      title: "Configuration",
      status: "pass",
      detail: `${config.usesSandbox ? "sandbox" : "service"} at ${config.authUrl} (auth) and ${config.apiUrl} (API), client ${config.clientId} (${config.clientSecret ? `confidential, ${config.tokenAuthMethod}` : "public, PKCE"})`,
    },
    checkBrand(config),
  ];
  const { result: discoveryResult, discovery, serverDate } = await checkDiscovery(ctx);
  results.push(discoveryResult);
  const authServerUp = discovery !== undefined;
  const notReached = "the auth server did not answer discovery";
  const [jwks, client, redirect, api, storage, backups] = await Promise.all([
    authServerUp ? checkJwks(ctx, discovery) : skipped("jwks", "Signing keys (JWKS)", notReached),
    authServerUp ? checkClientCredentials(ctx) : skipped("client", "Client credentials", notReached),
    authServerUp ? checkRedirectUri(ctx) : skipped("redirect-uri", "Redirect URI", notReached),
    checkApi(ctx),
    checkStorageCors(ctx),
    checkBackups(config),
  ]);
  results.push(
    authServerUp ? checkEndpoints(ctx, discovery) : skipped("endpoints", "Authorize and token endpoints", notReached),
    jwks,
    client,
    redirect,
    checkScopes(ctx, discovery),
    authServerUp ? checkBackchannelLogout(ctx, discovery) : skipped("backchannel-logout", "Back-channel logout", notReached),
    authServerUp ? checkRevocation(discovery) : skipped("revocation", "Token revocation", notReached),
    api,
    ...storage,
    serverDate ? checkClock(serverDate) : skipped("clock", "Clock", notReached),
    backups,
  );
  return results;
}
