import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../sandbox/index";
import { partnerTokens } from "./support/oauth";
import { resetSandbox, startTestSandbox } from "./support/sandbox";

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});

afterAll(async () => {
  await sandbox?.stop();
});

async function issued(): Promise<string[]> {
  const res = await fetch(`${sandbox.apiUrl}/_sandbox/issued-tokens`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { tokens: string[] }).tokens;
}

describe("GET /_sandbox/issued-tokens", () => {
  it("lists every access, refresh and id token handed out, and keeps them across a reset", async () => {
    expect(await issued()).toEqual([]);
    const tokens = await partnerTokens(sandbox);
    const expected = [tokens.access_token, tokens.refresh_token, tokens.id_token];
    expect(await issued()).toEqual(expect.arrayContaining(expected));
    await resetSandbox(sandbox);
    expect(await issued()).toEqual(expect.arrayContaining(expected));
  });

  it("accepts only GET", async () => {
    expect((await fetch(`${sandbox.apiUrl}/_sandbox/issued-tokens`, { method: "POST" })).status).toBe(405);
  });
});
