import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { randomBytes } from "node:crypto";
import Provider, { type OidcError } from "oidc-provider";
import type { SandboxConfig } from "./config";
import { buildClients, type RegisteredClient } from "./clients";
import type { Faults } from "./faults";
import type { Stats } from "./stats";
import type { IssuedTokens } from "./issued-tokens";
import { findUserById, idTokenClaims } from "./users";
import { handleInteraction } from "./interactions";
import { handleTokenRequest } from "./token-endpoint";
import { logRequest, sendError } from "./http-utils";
import { renderErrorPage } from "./views/error";
import { renderSignedOut, renderSignOutConfirm } from "./views/sign-out";
import { choosePageLanguage } from "./views/language";
import { createOidcStore, type OidcStore } from "./oidc-store";
import { ProviderSlot } from "./provider-slot";
import { handleJwksRequest } from "./jwks-endpoint";
import { createLogoutAwareFetch, type BackchannelLogoutUri, type SentLogoutTokens } from "./backchannel-logout";
import type { IdentityStyleSwitch } from "./identity-style";
import type { SigningKeys } from "./signing-keys";
import type { RevocationEndpoint, Revocations } from "./revocations";
import { customizeJwtAccessToken, resourceIndicatorsFeature } from "./jwt-access-tokens";

type PageContext = { type: string; body: string; headers: Record<string, string | string[] | undefined> };
type LogoutContext = PageContext & {
  oidc: { session?: { accountId?: string }; client?: { clientId: string; clientName?: string }; params?: { ui_locales?: unknown } };
};

/** The language of a page the library asks for: the request's ui_locales, then the browser's (views/language.ts). */
function languageOf(ctx: PageContext & { oidc?: { params?: { ui_locales?: unknown } } }) {
  return choosePageLanguage(ctx.oidc?.params?.ui_locales, ctx.headers["accept-language"]);
}

async function findAccount(_ctx: unknown, id: string) {
  const user = findUserById(id);
  if (!user) return undefined;
  return {
    accountId: user.id,
    claims: async () => idTokenClaims(user),
  };
}

export interface ProviderDeps {
  config: SandboxConfig;
  clients: RegisteredClient[];
  stats: Stats;
  issued: IssuedTokens;
  identity: IdentityStyleSwitch;
  keys: SigningKeys;
  revocations: Revocations;
  revocationEndpoint: RevocationEndpoint;
  /** Shared by every instance built for this sandbox, so grants and sessions survive a rebuild. */
  store: OidcStore;
  cookieKeys: string[];
  sentLogoutTokens: SentLogoutTokens;
}

export function createProvider(deps: ProviderDeps): Provider {
  const { config, clients, stats, issued, identity, keys, revocations, revocationEndpoint, store, cookieKeys, sentLogoutTokens } = deps;
  const provider = new Provider(config.authUrl, {
    adapter: store,
    clients: clients.map((client) => client.metadata),
    findAccount,
    jwks: keys.privateJwks(),
    cookies: { keys: cookieKeys },
    scopes: ["openid", "offline_access", "profile", "email", "service.api", "service.app"],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // The app reads email and name from the id_token; the library would otherwise keep them for userinfo only.
    conformIdTokenClaims: false,
    responseTypes: ["code"],
    features: {
      devInteractions: { enabled: false },
      resourceIndicators: resourceIndicatorsFeature(config, identity),
      // OIDC Back-Channel Logout 1.0 in every style: harmless when the app does not listen.
      backchannelLogout: { enabled: true },
      // RFC 7009 in every style unless switched off: the app's "sign out everywhere" uses it when discovery publishes it.
      revocation: { enabled: revocationEndpoint.published, allowedPolicy: revocations.allowedPolicy },
      // RP-initiated logout (discovery's end_session_endpoint), on the sandbox's own pages.
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx: LogoutContext, form: string) => {
          const accountId = ctx.oidc.session?.accountId;
          ctx.type = "html";
          ctx.body = renderSignOutConfirm({
            language: languageOf(ctx),
            form,
            userName: accountId ? findUserById(accountId)?.name : undefined,
            clientName: ctx.oidc.client?.clientName,
          });
        },
        postLogoutSuccessSource: async (ctx: LogoutContext) => {
          ctx.type = "html";
          ctx.body = renderSignedOut(languageOf(ctx));
        },
      },
    },
    // Errors that cannot go back to the client (bad redirect_uri, unknown client) are shown to the user.
    renderError: async (ctx: PageContext & { oidc?: { params?: { ui_locales?: unknown } } }, out: { error: string; error_description?: string }) => {
      ctx.type = "html";
      ctx.body = renderErrorPage(languageOf(ctx), "requestFailed", { code: out.error, detail: out.error_description });
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    routes: {
      authorization: "/connect/authorize",
      token: "/connect/token",
      jwks: "/connect/jwks",
      userinfo: "/connect/userinfo",
      end_session: "/connect/endsession",
      revocation: "/connect/revocation",
      pushed_authorization_request: "/connect/par",
    },
    fetch: createLogoutAwareFetch(sentLogoutTokens, stats),
    formats: { customizers: { jwt: customizeJwtAccessToken(identity, keys) } },
    // Every refresh returns a new refresh token; the library revokes the grant when a used one comes back.
    rotateRefreshToken: true,
    ttl: {
      AccessToken: config.accessTokenTtl,
      RefreshToken: config.refreshTokenTtl,
      Grant: config.refreshTokenTtl,
      Session: config.refreshTokenTtl,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 3600,
    },
  });
  // The demo deployment runs behind a TLS-terminating reverse proxy; trust its X-Forwarded-* headers.
  provider.proxy = true;
  provider.on("grant.success", (ctx: { body?: unknown }) => {
    if (ctx.body && typeof ctx.body === "object") issued.add(ctx.body as Record<string, unknown>);
  });
  provider.on("grant.error", (_ctx: unknown, error: OidcError) => {
    if (error.error_detail === "refresh token already used") stats.recordRefreshReuse();
  });
  return provider;
}

/**
 * Authorize-request rewrites that make the library behave like the spec without sandbox-only parameters:
 * openid is always granted (the spec's token response carries an id_token), service.app comes with
 * service.api as in the spec's sample, and prompt=consent is added when offline_access is asked by a client
 * allowed refresh tokens — oidc-provider drops offline_access without it.
 */
export function rewriteAuthorizeUrl(url: URL, clients: RegisteredClient[]): void {
  const client = clients.find((candidate) => candidate.clientId === url.searchParams.get("client_id"));
  const rawScope = url.searchParams.get("scope");
  if (!client || rawScope === null) return;
  const scopes = new Set(rawScope.split(" ").filter(Boolean));
  scopes.add("openid");
  if (scopes.has("service.api") && client.scope.includes("service.app")) scopes.add("service.app");
  url.searchParams.set("scope", [...scopes].join(" "));
  if (client.refreshTokens && scopes.has("offline_access")) {
    const prompts = new Set((url.searchParams.get("prompt") ?? "").split(" ").filter(Boolean));
    prompts.add("consent");
    url.searchParams.set("prompt", [...prompts].join(" "));
  }
}

export interface AuthServer {
  providers: ProviderSlot;
  store: OidcStore;
  server: Server;
}

export type AuthServerDeps = Omit<ProviderDeps, "clients" | "store" | "cookieKeys"> & {
  faults: Faults;
  backchannelLogoutUri: BackchannelLogoutUri;
  /** Responses held open by a hang fault, closed on stop. */
  hanging: Set<ServerResponse>;
};

export function createAuthServer(deps: AuthServerDeps): AuthServer {
  const { config, stats, faults, hanging } = deps;
  const clients = buildClients(config);
  const store = createOidcStore();
  // Fresh keys per start: sessions do not need to survive a restart of an in-memory sandbox.
  const cookieKeys = [randomBytes(32).toString("base64url")];
  // Client metadata and features are read at construction: a new back-channel URI or revocation switch takes a
  // rebuild, like a new key.
  const providers = new ProviderSlot(() =>
    createProvider({ ...deps, clients: buildClients(config, deps.backchannelLogoutUri.current), store, cookieKeys }),
  );
  const forward = (req: IncomingMessage, res: ServerResponse) => providers.handle(req, res);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", config.authUrl);
    if (url.pathname === "/connect/token" && req.method === "POST") {
      await handleTokenRequest({ clients, faults, stats, forward }, req, res);
      return;
    }
    if (url.pathname === "/.well-known/openid-configuration") res.once("finish", () => stats.record("discovery", res.statusCode));
    if (url.pathname === "/connect/jwks") {
      await handleJwksRequest({ faults, stats, hanging, forward }, req, res);
      return;
    }
    if (url.pathname === "/connect/authorize") {
      res.once("finish", () => stats.record("authorize", res.statusCode));
      if (req.method === "GET") {
        rewriteAuthorizeUrl(url, clients);
        req.url = url.pathname + url.search;
      }
    }
    if (await handleInteraction(providers.current, req, res)) return;
    await forward(req, res);
  };

  const server = createServer((req, res) => {
    logRequest(config.logRequests, "auth", req, res);
    handle(req, res).catch((error: unknown) => {
      console.error("sandbox auth server: unexpected error", error);
      if (!res.headersSent) sendError(res, 500, "server_error", "unexpected sandbox error");
      else res.destroy();
    });
  });
  return { providers, server, store };
}
