import { ConfigError, getConfig } from "@/lib/env";

/** Validates configuration at server start: prints one line per problem and exits rather than serve half-configured. */
export function checkConfigAtStartup(): void {
  try {
    const config = getConfig();
    console.log(
      `eSign partner app: ${config.usesSandbox ? "sandbox" : "service"} at ${config.authUrl} (auth) and ${config.apiUrl} (API), client ${config.clientId} (${config.clientSecret ? "confidential" : "public, PKCE"})`,
    );
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
