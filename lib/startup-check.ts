import "server-only";
import { ConfigError, getConfig } from "@/lib/env";
import { getLogger } from "@/lib/logging/logger";

/** Validates configuration at server start: logs one line per problem and exits rather than serve half-configured. */
export function checkConfigAtStartup(): void {
  const logger = getLogger();
  try {
    const config = getConfig();
    logger.info(
      `eSign partner app: ${config.usesSandbox ? "sandbox" : "service"} at ${config.authUrl} (auth) and ${config.apiUrl} (API), client ${config.clientId} (${config.clientSecret ? "confidential" : "public, PKCE"})`,
    );
    if (!config.clientSecret) {
      logger.warn(
        "Public client: no refresh tokens are requested or kept, so every session ends when its access token expires and the user signs in again",
      );
    }
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    logger.fatal("Invalid configuration, not starting:");
    for (const problem of error.problems) logger.fatal(problem);
    process.exit(1);
  }
}
