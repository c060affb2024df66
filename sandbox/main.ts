import { ConfigError, parseEnv } from "./config";
import { buildClients } from "./clients";
import { listUsers } from "./users";
import type { RunningSandbox } from "./index";

function summary(sandbox: RunningSandbox): string {
  const { config } = sandbox;
  const clients = buildClients(config).map(
    (client) =>
      `    ${client.clientId} (${client.authMethod}${client.authMethod === "none" ? "" : `, secret ${config.partnerClientSecret}`}` +
      `${client.refreshTokens ? ", refresh tokens" : ", no refresh tokens"}) scopes: ${client.scope.join(" ")}`,
  );
  const users = listUsers().map(
    (user) => `    ${user.email} / ${user.password}${user.customer ? "" : " (no customer account)"}`,
  );
  return [
    "e-signature sandbox ready",
    `  auth server  ${sandbox.authUrl}  (discovery: ${sandbox.authUrl}/.well-known/openid-configuration)`,
    `  API          ${sandbox.apiUrl}  (admin: ${sandbox.apiUrl}/_sandbox/stats|documents|faults|reset)`,
    `  blob storage ${sandbox.blobUrl}/devstoreaccount1`,
    `  redirect URIs: ${config.redirectUris.join(", ")}`,
    "  clients:",
    ...clients,
    "  users:",
    ...users,
  ].join("\n");
}

async function main(): Promise<void> {
  let overrides;
  try {
    overrides = parseEnv(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  // Loaded only after the configuration is known to be valid, so a typo is not buried under library notices.
  const { startSandbox } = await import("./index");
  const sandbox = await startSandbox({ ...overrides, logRequests: true });
  console.log(summary(sandbox));
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received, stopping sandbox`);
    sandbox.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error("sandbox: error while stopping", error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}

main().catch((error: unknown) => {
  console.error("sandbox failed to start:", error instanceof Error ? error.message : error);
  process.exit(1);
});
