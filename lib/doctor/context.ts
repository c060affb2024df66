import "server-only";
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
};

export function contextFrom(config: AppConfig, authUrl: string | undefined): DoctorContext {
  // `npm start` serves the app on :3000, which is what the sandbox registers by default.
  const appUrl = authUrl ?? (config.usesSandbox ? "http://localhost:3000" : undefined);
  const appOrigin = appUrl ? new URL(appUrl).origin : undefined;
  return {
    config,
    appOrigin,
    redirectUri: appUrl ? `${appUrl.replace(/\/+$/, "")}/api/auth/callback/esign` : undefined,
  };
}
