import "server-only";
import { appOrigin } from "@/lib/app-origin";
import type { AppConfig } from "@/lib/env";

/** What every check needs: the parsed configuration and where the app says it lives. */
export type DoctorContext = {
  config: AppConfig;
  /** Origin of the app (AUTH_URL; the sandbox default http://localhost:3000 when it is unset and the sandbox is used). */
  appOrigin: string | undefined;
  redirectUri: string | undefined;
};

/** The fields of the discovery document the checks read. */
export type Discovery = {
  issuer?: unknown;
  authorization_endpoint?: unknown;
  token_endpoint?: unknown;
  jwks_uri?: unknown;
  scopes_supported?: unknown;
  id_token_signing_alg_values_supported?: unknown;
  backchannel_logout_supported?: unknown;
  backchannel_logout_session_supported?: unknown;
  revocation_endpoint?: unknown;
};

/** `env` is the environment the doctor was given; AUTH_URL was validated by parseConfig. */
export function contextFrom(config: AppConfig, env: Record<string, string | undefined>): DoctorContext {
  const authUrl = env.AUTH_URL?.trim().replace(/\/+$/, "") || undefined;
  if (!authUrl && !config.usesSandbox) return { config, appOrigin: undefined, redirectUri: undefined };
  // Without AUTH_URL, the app as `npm start` serves it on :3000, which the sandbox registers by default.
  const origin = appOrigin({ headers: new Headers({ host: "localhost:3000" }) }, env);
  return { config, appOrigin: origin, redirectUri: `${authUrl ?? origin}/api/auth/callback/esign` };
}
