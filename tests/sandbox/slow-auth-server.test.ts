import { describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../sandbox/index";
import { addFault, refreshTokenStatus, sandboxStats, setUpTestSandbox } from "./support/sandbox";
import { PARTNER, partnerTokens } from "./support/oauth";

let sandbox: RunningSandbox;

setUpTestSandbox((started) => (sandbox = started));

/** A refresh as the app sends it, abandoned after `deadlineMs` like the app's own request deadline. */
const refreshWithDeadline = (refreshToken: string, deadlineMs: number) =>
  fetch(`${sandbox.authUrl}/connect/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken, ...PARTNER }).toString(),
    signal: AbortSignal.timeout(deadlineMs),
  });

async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe("slow token endpoint and key set", () => {
  it("answers a refresh delayed to under the client's deadline", async () => {
    const { refresh_token } = await partnerTokens(sandbox);
    await addFault(sandbox, { target: "token", grantType: "refresh_token", delayMs: 400 });
    const response = await refreshWithDeadline(refresh_token ?? "", 5_000);
    expect(response.status).toBe(200);
    expect((await response.json()).refresh_token).toEqual(expect.any(String));
  });

  it("still rotates the refresh token when the client gives up before the delayed answer", async () => {
    const { refresh_token } = await partnerTokens(sandbox);
    await addFault(sandbox, { target: "token", grantType: "refresh_token", delayMs: 600 });
    await expect(refreshWithDeadline(refresh_token ?? "", 100)).rejects.toThrow();
    await until(async () => (await refreshTokenStatus(sandbox, refresh_token ?? "")).status !== "active");
    expect((await refreshTokenStatus(sandbox, refresh_token ?? "")).status).toBe("consumed");
    // The app never saw the new refresh token: retrying with the old one is reuse and ends the sign-in.
    expect((await refreshWithDeadline(refresh_token ?? "", 5_000)).status).toBe(400);
    expect((await sandboxStats(sandbox)).refreshReuse).toBe(1);
  });

  it("delays the token endpoint and the key set together, each answering normally", async () => {
    const { refresh_token } = await partnerTokens(sandbox);
    await addFault(sandbox, { target: "token", delayMs: 300 });
    await addFault(sandbox, { target: "jwks", delayMs: 300 });
    const [token, jwks] = await Promise.all([refreshWithDeadline(refresh_token ?? "", 5_000), fetch(`${sandbox.authUrl}/connect/jwks`)]);
    expect([token.status, jwks.status]).toEqual([200, 200]);
    expect((await sandboxStats(sandbox)).jwksRequests).toBe(1);
  });
});
