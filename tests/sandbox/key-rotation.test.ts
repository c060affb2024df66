import { decodeProtectedHeader } from "jose";
import { describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../sandbox/index";
import { addFault, adminSend, publishedJwks, sandboxStats, setIdentityStyle, setUpTestSandbox } from "./support/sandbox";
import { PARTNER, partnerTokens, postToken } from "./support/oauth";

let sandbox: RunningSandbox;

setUpTestSandbox((started) => (sandbox = started));

type KeySummary = { signingKid: string; publishedKids: string[] };

const rotate = async (query = ""): Promise<KeySummary> => (await adminSend(sandbox, "POST", `keys/rotate${query}`)).json();
const refresh = (refreshToken: string) => postToken(sandbox, { grant_type: "refresh_token", refresh_token: refreshToken, ...PARTNER });
const getUserInfo = (token: string) =>
  fetch(`${sandbox.apiUrl}/api/getuserinfo`, { headers: { authorization: `Bearer ${token}` } });

describe("signing-key rotation", () => {
  it("publishes the signing key, with no private members", async () => {
    const summary: KeySummary = await (await adminSend(sandbox, "GET", "keys")).json();
    const { keys } = await publishedJwks(sandbox);
    expect(keys.map((key) => key.kid)).toEqual(summary.publishedKids);
    expect(summary.publishedKids[0]).toBe(summary.signingKid);
    expect(keys.every((key) => key.kty === "RSA" && key.d === undefined)).toBe(true);
  });

  it("signs with a new key, keeps the old one published, and a refresh token from before still works", async () => {
    await setIdentityStyle(sandbox, { style: "identityserver" });
    const before = await partnerTokens(sandbox);
    const oldKid = decodeProtectedHeader(before.id_token).kid;
    const { signingKid, publishedKids } = await rotate();
    expect(signingKid).not.toBe(oldKid);
    expect(publishedKids).toEqual([signingKid, oldKid]);
    expect((await publishedJwks(sandbox)).keys.map((key) => key.kid)).toEqual([signingKid, oldKid]);

    const { status, body } = await refresh(before.refresh_token ?? "");
    expect(status).toBe(200);
    expect(decodeProtectedHeader(String(body.id_token)).kid).toBe(signingKid);
    expect(decodeProtectedHeader(String(body.access_token)).kid).toBe(signingKid);
    expect((await getUserInfo(String(body.access_token))).status).toBe(200);
    // Signed with the old key, which is still published.
    expect((await getUserInfo(before.access_token)).status).toBe(200);
    expect(decodeProtectedHeader((await partnerTokens(sandbox)).access_token).kid).toBe(signingKid);
  });

  it("drops the old keys with retireOld=true, so tokens they signed no longer verify", async () => {
    await setIdentityStyle(sandbox, { style: "identityserver" });
    const before = await partnerTokens(sandbox);
    const { signingKid, publishedKids } = await rotate("?retireOld=true");
    expect(publishedKids).toEqual([signingKid]);
    expect((await publishedJwks(sandbox)).keys.map((key) => key.kid)).toEqual([signingKid]);
    expect((await getUserInfo(before.access_token)).status).toBe(401);
    expect((await refresh(before.refresh_token ?? "")).status).toBe(200);
  });
});

describe("JWKS faults and counting", () => {
  const jwks = (init: RequestInit = {}) => fetch(`${sandbox.authUrl}/connect/jwks`, init);

  it("counts every JWKS request, faulted ones included", async () => {
    await addFault(sandbox, { target: "jwks", status: 503 });
    await jwks();
    await jwks();
    expect((await sandboxStats(sandbox)).jwksRequests).toBe(2);
  });

  it("answers the faulted status for the next count requests, then the key set again", async () => {
    expect((await addFault(sandbox, { target: "jwks", status: 500, count: 2 })).status).toBe(201);
    const failures = [await jwks(), await jwks()];
    expect(failures.map((response) => response.status)).toEqual([500, 500]);
    expect((await failures[0]?.json()).error).toBe("server_error");
    const ok = await jwks();
    expect(ok.status).toBe(200);
    expect((await ok.json()).keys.length).toBeGreaterThan(0);
  });

  it("delays the key set and then answers it", async () => {
    await addFault(sandbox, { target: "jwks", delayMs: 200 });
    const response = await jwks();
    expect(response.status).toBe(200);
    expect((await response.json()).keys.length).toBeGreaterThan(0);
  });

  it("hangs until the client gives up, then serves the next request", async () => {
    await addFault(sandbox, { target: "jwks", hang: true });
    await expect(jwks({ signal: AbortSignal.timeout(300) })).rejects.toThrow();
    expect((await jwks()).status).toBe(200);
  });

  it.each([
    ["no behaviour", { target: "jwks" }],
    ["two behaviours", { target: "jwks", status: 500, hang: true }],
  ])("rejects a jwks fault with %s", async (_label, fault) => {
    expect((await addFault(sandbox, fault)).status).toBe(400);
  });
});

describe("JWKS down with a rotated key", () => {
  it("mints a logout token under the new key while /connect/jwks answers 503, and the key is published once it is back", async () => {
    const before: KeySummary = await (await adminSend(sandbox, "GET", "keys")).json();
    const { signingKid } = await rotate();
    expect(signingKid).not.toBe(before.signingKid);
    await addFault(sandbox, { target: "jwks", status: 503, count: 3 });
    const { jwt } = (await (await adminSend(sandbox, "POST", "logout-token", { sub: "6f1c2b0e-4d0a-4a8e-9a51-1c7e3f0a2b11" })).json()) as { jwt: string };
    expect(decodeProtectedHeader(jwt).kid).toBe(signingKid);
    expect((await fetch(`${sandbox.authUrl}/connect/jwks`)).status).toBe(503);
    await adminSend(sandbox, "DELETE", "faults");
    expect((await publishedJwks(sandbox)).keys.map((key) => key.kid)).toContain(signingKid);
  });
});
