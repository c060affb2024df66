import { afterEach, describe, expect, it, vi } from "vitest";
import * as o from "oauth4webapi";
import { CallbackRouteError, InvalidCheck } from "@auth/core/errors";
import { classifyCallbackFailure, describeAuthError, OAUTH_CODES, STATE_CHECK_MESSAGES } from "@/lib/auth/callback-failure";
import { logAuthError } from "@/lib/auth/auth-error-log";
import { getLogger } from "@/lib/logging/logger";

// Auth.js's callback route does `new CallbackRouteError(libraryError, { provider })`; its types declare only Error's constructor.
const CallbackRouteErrorOf = CallbackRouteError as unknown as new (error: Error, options: { provider: string }) => CallbackRouteError;
const routeError = (error: unknown) => new CallbackRouteErrorOf(error as Error, { provider: "esign" });

const as: o.AuthorizationServer = { issuer: "http://localhost:4000", token_endpoint: "http://localhost:4000/connect/token" };
const client: o.Client = { client_id: "partner-app" };

/** What the library throws, wrapped the way Auth.js's callback route wraps it. */
function wrapped(run: () => unknown): CallbackRouteError {
  try {
    run();
  } catch (error) {
    return routeError(error);
  }
  throw new Error("expected the library to throw");
}

async function wrappedAsync(run: () => Promise<unknown>): Promise<CallbackRouteError> {
  try {
    await run();
  } catch (error) {
    return routeError(error);
  }
  throw new Error("expected the library to throw");
}

const tokenError = (status: number, body: object) =>
  wrappedAsync(() =>
    o.processAuthorizationCodeResponse(as, client, new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })),
  );

/** An id_token response whose nonce is `nonce` while the browser's check expects `expected`. */
function idTokenWithNonce(nonce: string, expected: string) {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const now = Math.floor(Date.now() / 1000);
  const idToken = [
    part({ alg: "RS256", typ: "JWT" }),
    part({ iss: as.issuer, aud: client.client_id, sub: "user", iat: now, exp: now + 60, nonce }),
    "c2lnbmF0dXJl",
  ].join(".");
  const body = { access_token: "a", token_type: "Bearer", expires_in: 60, id_token: idToken };
  return wrappedAsync(() =>
    o.processAuthorizationCodeResponse(as, client, new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } }), {
      expectedNonce: expected,
    }),
  );
}

afterEach(() => vi.restoreAllMocks());

/** The classification reads oauth4webapi's codes, and for the state check its text: an upgrade that changes either fails here. */
describe("what the installed oauth4webapi produces", () => {
  const libraryError = (error: CallbackRouteError) => (error.cause as unknown as { err: { code: string; message: string; cause?: { claim?: string } } }).err;

  it("words the two state check failures exactly as callback-failure.ts expects", () => {
    const mismatch = libraryError(wrapped(() => o.validateAuthResponse(as, client, new URLSearchParams({ code: "c", state: "x" }), "y")));
    const missing = libraryError(wrapped(() => o.validateAuthResponse(as, client, new URLSearchParams({ code: "c" }), "y")));
    expect([mismatch.code, missing.code]).toEqual([OAUTH_CODES.invalidResponse, OAUTH_CODES.invalidResponse]);
    expect([mismatch.message, missing.message]).toEqual(STATE_CHECK_MESSAGES);
  });

  it("marks a nonce mismatch with its claim-comparison code and claim name", async () => {
    const error = libraryError(await idTokenWithNonce("a", "b"));
    expect(error.code).toBe(OAUTH_CODES.claimComparison);
    expect(error.cause?.claim).toBe("nonce");
  });

  it("carries a refused token request's error code", async () => {
    expect(libraryError(await tokenError(400, { error: "invalid_grant" })).code).toBe(OAUTH_CODES.responseBodyError);
  });
});

describe("classifyCallbackFailure", () => {
  it("calls a missing check cookie stale", () => {
    expect(classifyCallbackFailure(new InvalidCheck("state cookie was missing"))).toBe("stale");
  });

  it("calls a state from another sign-in stale", () => {
    const error = wrapped(() => o.validateAuthResponse(as, client, new URLSearchParams({ code: "c", state: "other-tab" }), "this-tab"));
    expect(classifyCallbackFailure(error)).toBe("stale");
  });

  it("calls a missing state stale", () => {
    const error = wrapped(() => o.validateAuthResponse(as, client, new URLSearchParams({ code: "c" }), "this-tab"));
    expect(classifyCallbackFailure(error)).toBe("stale");
  });

  it("calls an id_token nonce from another sign-in stale", async () => {
    expect(classifyCallbackFailure(await idTokenWithNonce("other-tab", "this-tab"))).toBe("stale");
  });

  it("calls an unexpected issuer in the callback a configuration error, though it has the state check's code", () => {
    const error = wrapped(() =>
      o.validateAuthResponse(as, client, new URLSearchParams({ code: "c", state: "this-tab", iss: "https://elsewhere.example" }), "this-tab"),
    );
    expect(classifyCallbackFailure(error)).toBe("configuration");
  });

  it("calls a used or expired code (invalid_grant) stale", async () => {
    expect(classifyCallbackFailure(await tokenError(400, { error: "invalid_grant", error_description: "grant request is invalid" }))).toBe("stale");
  });

  it("calls a refused client (invalid_client) a configuration error", async () => {
    expect(classifyCallbackFailure(await tokenError(401, { error: "invalid_client", error_description: "client authentication failed" }))).toBe("configuration");
  });

  it("calls an unreachable service a configuration error", () => {
    const unreachable = new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:4000"), { code: "ECONNREFUSED" }) });
    expect(classifyCallbackFailure(routeError(unreachable))).toBe("configuration");
  });

  it("calls other Auth.js errors and non-errors configuration errors", () => {
    expect(classifyCallbackFailure(new Error("boom"))).toBe("configuration");
    expect(classifyCallbackFailure(undefined)).toBe("configuration");
  });
});

describe("describeAuthError", () => {
  it("names the service's error and the network cause", async () => {
    expect(describeAuthError(await tokenError(401, { error: "invalid_client", error_description: "client authentication failed" }))).toContain(
      "401 invalid_client: client authentication failed",
    );
    const unreachable = new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:4000"), { code: "ECONNREFUSED" }) });
    expect(describeAuthError(routeError(unreachable))).toContain("ECONNREFUSED: connect ECONNREFUSED");
  });

  it("never prints the token response a library error carries", async () => {
    const error = await wrappedAsync(() =>
      o.processAuthorizationCodeResponse(
        as,
        client,
        new Response(JSON.stringify({ access_token: "secret-access-token", token_type: "Bearer", scope: 42 }), {
          status: 200,
          headers: { "content-type": "application/json" },
        }),
      ),
    );
    expect(describeAuthError(error)).not.toContain("secret-access-token");
    // The same library error code as a state mismatch, but about the token response: not the person's doing.
    expect(classifyCallbackFailure(error)).toBe("configuration");
  });
});

describe("logAuthError", () => {
  it("logs a configuration error as an error with its cause, a stale link as a warning", async () => {
    const errorLog = vi.spyOn(getLogger(), "error").mockImplementation(() => {});
    const warnLog = vi.spyOn(getLogger(), "warn").mockImplementation(() => {});
    logAuthError(await tokenError(401, { error: "invalid_client" }));
    logAuthError(new InvalidCheck("state cookie was missing"));
    expect(errorLog).toHaveBeenCalledTimes(1);
    expect(errorLog.mock.calls[0]?.[0]).toMatch(/CallbackRouteError.*invalid_client/);
    expect(warnLog).toHaveBeenCalledTimes(1);
    expect(warnLog.mock.calls[0]?.[0]).toMatch(/stale.*InvalidCheck/);
  });
});
