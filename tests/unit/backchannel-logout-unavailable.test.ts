import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SignJWT } from "jose";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startStandInIssuer, type StandInIssuer } from "../support/stand-in-issuer";
import { setAppEnv } from "../support/app-env";

// A session store that cannot answer: its directory is a plain file, so every operation fails.
let standIn: StandInIssuer;
let scratch: string;
let POST: typeof import("@/app/api/auth/backchannel-logout/route").POST;

beforeAll(async () => {
  standIn = await startStandInIssuer();
  scratch = await mkdtemp(join(tmpdir(), "backchannel-unavailable-"));
  await writeFile(join(scratch, "not-a-directory"), "");
  setAppEnv(standIn.url, {
    SESSION_STORE_DIR: join(scratch, "not-a-directory"),
  });
  ({ POST } = await import("@/app/api/auth/backchannel-logout/route"));
});

afterAll(async () => {
  await standIn.close();
  await rm(scratch, { recursive: true, force: true });
});

it("answers 503 with Retry-After while the session store cannot answer, so the service may retry", async () => {
  const token = await new SignJWT({ sub: "alice", jti: "j-unavailable", events: { "http://schemas.openid.net/event/backchannel-logout": {} } })
    .setProtectedHeader({ alg: "RS256", kid: "k1", typ: "logout+jwt" })
    .setIssuer(standIn.url)
    .setAudience("partner-app")
    .setIssuedAt()
    .sign(standIn.signingKey);
  const res = await POST(
    new NextRequest("http://localhost:3000/api/auth/backchannel-logout", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ logout_token: token }).toString(),
    }),
  );
  expect(res.status).toBe(503);
  expect(res.headers.get("retry-after")).toBe("5");
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect((await res.json()).error).toBe("temporarily_unavailable");
});
