import type { IncomingMessage, ServerResponse } from "node:http";
import type { ApiDeps } from "./api-deps";
import { ApiError } from "./api-error";
import { z } from "zod";
import { faultInputSchema } from "./faults";
import { responseStyles } from "./response-style";
import { accessTokenBytesSchema, identityStyles } from "./identity-style";
import { readJsonBody, sendJson } from "./http-utils";
import { seenRequestIds } from "./seen-request-ids";
import { createdDocumentNames } from "./created-document-names";
import { refreshTokenStatus } from "./refresh-token-status";
import { logoutTokenRequestSchema } from "./logout-token-minting";
import { signOutAccount } from "./session-sign-out";
import { listUsers } from "./users";

const ADMIN_BODY_LIMIT = 16 * 1024;

/** The JSON body checked against `schema`; the first problem becomes a 400. */
async function readValidated<T>(req: IncomingMessage, schema: z.ZodType<T>): Promise<T> {
  const parsed = schema.safeParse(await readJsonBody(req, ADMIN_BODY_LIMIT, "request body too large"));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ApiError(400, "invalid_request", `${issue?.path.join(".") || "body"}: ${issue?.message}`);
  }
  return parsed.data;
}

const responseStyleSchema = z.object({ style: z.enum(responseStyles) }).strict();

// PUT replaces the settings: an omitted accessTokenBytes means the token's natural size.
const identityStyleSchema = z
  .object({ style: z.enum(identityStyles), accessTokenBytes: accessTokenBytesSchema.default(null) })
  .strict();

const backchannelLogoutUriSchema = z.object({ uri: z.url({ protocol: /^https?$/ }) }).strict();

const signOutSchema = z.union([z.object({ sub: z.string() }).strict(), z.object({ email: z.string() }).strict()]);

/** The partner's registered back-channel URI is client metadata: changing it rebuilds the provider. */
function setBackchannelLogoutUri(deps: ApiDeps, uri: string): void {
  if (deps.backchannelLogoutUri.current === uri) return;
  deps.backchannelLogoutUri.current = uri;
  deps.providers.rebuild();
}

const revocationEndpointSchema = z.object({ published: z.boolean() }).strict();

/** Revocation is a provider feature: switching it rebuilds the provider (grants and sessions stay). */
function setRevocationEndpoint(deps: ApiDeps, published: boolean): void {
  if (deps.revocationEndpoint.published === published) return;
  deps.revocationEndpoint.published = published;
  deps.providers.rebuild();
}

const outageSchema = z.object({ part: z.enum(["api", "auth"]), ms: z.number().int().min(100).max(60_000) }).strict();

async function listDocuments(deps: ApiDeps) {
  return Promise.all(
    deps.documents.list().map(async (document) => ({ ...document, blob: await deps.blobs.inspect(document.blobName) })),
  );
}

type AdminRoute = (deps: ApiDeps, req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

const adminRoutes: Record<string, Record<string, AdminRoute>> = {
  "/_sandbox/documents": {
    GET: async (deps, _req, res) => sendJson(res, 200, { documents: await listDocuments(deps) }),
  },
  "/_sandbox/stats": {
    GET: (deps, _req, res) => sendJson(res, 200, deps.stats.snapshot()),
  },
  "/_sandbox/outage": {
    POST: async (deps, req, res) => {
      const { part, ms } = await readValidated(req, outageSchema);
      sendJson(res, 202, { outage: { part, ms } });
      // Only once this answer is out: the API's own listener may be the one that goes away.
      res.once("finish", () => deps.outage(part, ms));
    },
  },
  "/_sandbox/issued-tokens": {
    GET: (deps, _req, res) => sendJson(res, 200, { tokens: deps.issued.list() }),
  },
  "/_sandbox/refresh-token-status": {
    GET: async (deps, req, res) => {
      const token = new URL(req.url ?? "", "http://sandbox").searchParams.get("token");
      if (!token) throw new ApiError(400, "invalid_request", "token: the refresh token to look up is required");
      sendJson(res, 200, await refreshTokenStatus(deps.providers.current, deps.issued, deps.revocations, token));
    },
  },
  "/_sandbox/request-ids": {
    GET: (_deps, _req, res) => sendJson(res, 200, { requests: seenRequestIds.list() }),
  },
  "/_sandbox/created-document-names": {
    GET: (_deps, _req, res) => sendJson(res, 200, { names: createdDocumentNames.list() }),
  },
  "/_sandbox/faults": {
    GET: (deps, _req, res) => sendJson(res, 200, { faults: deps.faults.list(), heldTokenCalls: deps.faults.heldCount() }),
    POST: async (deps, req, res) => sendJson(res, 201, { fault: deps.faults.add(await readValidated(req, faultInputSchema)) }),
    // The "fix" for a fault left on (an invalid_client for the next 1000 refreshes, a hold): nothing else is reset.
    DELETE: (deps, req, res) => {
      req.resume();
      deps.faults.reset();
      sendJson(res, 200, { faults: [] });
    },
  },
  "/_sandbox/revocation-endpoint": {
    GET: (deps, _req, res) => sendJson(res, 200, { published: deps.revocationEndpoint.published }),
    PUT: async (deps, req, res) => {
      setRevocationEndpoint(deps, (await readValidated(req, revocationEndpointSchema)).published);
      sendJson(res, 200, { published: deps.revocationEndpoint.published });
    },
  },
  "/_sandbox/response-style": {
    GET: (deps, _req, res) => sendJson(res, 200, { style: deps.style.current }),
    PUT: async (deps, req, res) => {
      deps.style.current = (await readValidated(req, responseStyleSchema)).style;
      sendJson(res, 200, { style: deps.style.current });
    },
  },
  "/_sandbox/identity-style": {
    GET: (deps, _req, res) => sendJson(res, 200, deps.identity.current),
    PUT: async (deps, req, res) => {
      deps.identity.current = await readValidated(req, identityStyleSchema);
      sendJson(res, 200, deps.identity.current);
    },
  },
  "/_sandbox/keys": {
    GET: (deps, _req, res) => sendJson(res, 200, deps.keys.summary()),
  },
  "/_sandbox/keys/rotate": {
    POST: async (deps, req, res) => {
      req.resume();
      const retireOld = new URL(req.url ?? "", "http://sandbox").searchParams.get("retireOld") === "true";
      await deps.keys.rotate({ retireOld });
      deps.providers.rebuild();
      sendJson(res, 200, deps.keys.summary());
    },
  },
  "/_sandbox/backchannel-logout-uri": {
    GET: (deps, _req, res) => sendJson(res, 200, { uri: deps.backchannelLogoutUri.current }),
    PUT: async (deps, req, res) => {
      setBackchannelLogoutUri(deps, (await readValidated(req, backchannelLogoutUriSchema)).uri);
      sendJson(res, 200, { uri: deps.backchannelLogoutUri.current });
    },
  },
  "/_sandbox/logout-tokens": {
    GET: (deps, _req, res) => sendJson(res, 200, { tokens: deps.sentLogoutTokens.list() }),
  },
  "/_sandbox/logout-token": {
    POST: async (deps, req, res) =>
      sendJson(res, 200, { jwt: await deps.logoutTokens.mint(await readValidated(req, logoutTokenRequestSchema)) }),
  },
  "/_sandbox/sign-out": {
    POST: async (deps, req, res) => {
      const body = await readValidated(req, signOutSchema);
      const user = listUsers().find((candidate) => ("sub" in body ? candidate.id === body.sub : candidate.email === body.email));
      if (!user) throw new ApiError(404, "not_found", "no such user");
      sendJson(res, 200, await signOutAccount(deps.providers.current, deps.store, user.id));
    },
  },
  "/_sandbox/reset": {
    POST: (deps, req, res) => {
      req.resume();
      deps.stats.reset();
      deps.faults.reset();
      deps.documents.reset();
      deps.style.reset();
      deps.identity.reset();
      deps.sentLogoutTokens.reset();
      setBackchannelLogoutUri(deps, deps.config.backchannelLogoutUri);
      setRevocationEndpoint(deps, deps.config.revocationEndpoint);
      sendJson(res, 200, { reset: true });
    },
  },
};

/** Inspection and fault switches for tests and demos; served on the API port only. */
export async function handleAdmin(deps: ApiDeps, path: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const methods = adminRoutes[path];
  if (!methods) throw new ApiError(404, "not_found", `no route for ${path}`);
  const handler = methods[req.method ?? ""];
  if (!handler) {
    const allowed = Object.keys(methods).join(", ");
    throw new ApiError(405, "method_not_allowed", `${path} accepts ${allowed}`, { allow: allowed });
  }
  await handler(deps, req, res);
}
