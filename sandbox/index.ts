import type { Server, ServerResponse } from "node:http";
import { once } from "node:events";
import { resolveConfig, type SandboxConfig } from "./config";
import { createAuthServer } from "./auth-server";
import { createApiServer } from "./api";
import { BlobStorage } from "./blob-storage";
import { DocumentRegistry } from "./documents";
import { Faults } from "./faults";
import { Stats } from "./stats";
import { IssuedTokens } from "./issued-tokens";
import { ResponseStyleSwitch } from "./response-style";
import { IdentityStyleSwitch } from "./identity-style";
import { SigningKeys } from "./signing-keys";
import { RevocationEndpoint, Revocations } from "./revocations";
import { BackchannelLogoutUri, SentLogoutTokens } from "./backchannel-logout";
import { LogoutTokenMinter } from "./logout-token-minting";

export type { SandboxConfig } from "./config";
export type { StatsSnapshot } from "./stats";
export type { FaultInput } from "./faults";
export type { IdentitySettings, IdentityStyle } from "./identity-style";
export type { SentLogoutToken } from "./backchannel-logout";
export type { LogoutTokenRequest } from "./logout-token-minting";
export type { RefreshTokenState } from "./refresh-token-status";

export interface RunningSandbox {
  authUrl: string;
  apiUrl: string;
  blobUrl: string;
  config: SandboxConfig;
  stop(): Promise<void>;
}

/**
 * How long an idle keep-alive connection stays open: Kestrel's default (IdentityServer's host), not Node's 5 s.
 * With 5 s, a client that sent on a connection idle for just that long met the server closing it: ECONNRESET.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 130_000;

async function listen(server: Server, port: number): Promise<void> {
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.listen(port, "127.0.0.1");
  await once(server, "listening");
}

async function close(server: Server): Promise<void> {
  if (!server.listening) return;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Keep-alive sockets would otherwise hold close() open until they time out.
  server.closeAllConnections();
  await closed;
}

/** Starts auth server, API and azurite in this process; `stop()` takes all three down. */
export async function startSandbox(overrides: Partial<SandboxConfig> = {}): Promise<RunningSandbox> {
  const config = resolveConfig(overrides);
  const stats = new Stats();
  const faults = new Faults();
  const issued = new IssuedTokens();
  const hanging = new Set<ServerResponse>();
  const outageTimers = new Set<NodeJS.Timeout>();
  let stopping = false;
  const identity = new IdentityStyleSwitch({ style: config.identityStyle, accessTokenBytes: config.accessTokenBytes });
  const [blobs, keys] = await Promise.all([BlobStorage.start(config), SigningKeys.create()]);
  const revocations = new Revocations(stats);
  const revocationEndpoint = new RevocationEndpoint(config.revocationEndpoint);
  const sentLogoutTokens = new SentLogoutTokens();
  const backchannelLogoutUri = new BackchannelLogoutUri(config.backchannelLogoutUri);
  const auth = createAuthServer({
    config,
    stats,
    faults,
    issued,
    identity,
    keys,
    revocations,
    revocationEndpoint,
    hanging,
    sentLogoutTokens,
    backchannelLogoutUri,
  });
  const api = createApiServer({
    config,
    providers: auth.providers,
    store: auth.store,
    sentLogoutTokens,
    backchannelLogoutUri,
    logoutTokens: new LogoutTokenMinter(config, keys),
    identity,
    keys,
    revocations,
    revocationEndpoint,
    blobs,
    documents: new DocumentRegistry(),
    faults,
    stats,
    issued,
    style: new ResponseStyleSwitch(config.responseStyle),
    hanging,
    outage: (part, ms) => {
      const [server, port] = part === "api" ? [api, config.apiPort] : [auth.server, config.authPort];
      void close(server).then(() => {
        const timer = setTimeout(() => {
          outageTimers.delete(timer);
          if (!stopping) server.listen(port, "127.0.0.1");
        }, ms);
        outageTimers.add(timer);
      });
    },
  });

  const stop = async () => {
    stopping = true;
    // Held token calls go on and fail against the closed servers instead of waiting for ever.
    faults.reset();
    for (const timer of outageTimers) clearTimeout(timer);
    for (const res of hanging) res.destroy();
    await Promise.all([close(auth.server), close(api), blobs.stop()]);
  };
  try {
    await Promise.all([listen(auth.server, config.authPort), listen(api, config.apiPort)]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { authUrl: config.authUrl, apiUrl: config.apiUrl, blobUrl: config.blobUrl, config, stop };
}
