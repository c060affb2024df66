import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BlobServiceClient, StorageSharedKeyCredential } from "@azure/storage-blob";
import type { RunningSandbox } from "../../sandbox/index";
import { startSandbox } from "../../sandbox/index";
import { ACCOUNT, ACCOUNT_KEY } from "../../sandbox/blob-storage";
import type { CheckResult } from "@/lib/doctor/report";
import { envPort } from "../../scripts/lib/env-port";

// Own ports (42xx, env-overridable) so the doctor tests never meet the contract (41xx), fuzz (45xx) or e2e sandboxes.
const AUTH_PORT = envPort("DOCTOR_TEST_AUTH_PORT", 4200);
const API_PORT = envPort("DOCTOR_TEST_API_PORT", 4201);
const BLOB_PORT = envPort("DOCTOR_TEST_BLOB_PORT", 4202);
/** Nothing listens here: "pointing nowhere" and "auth server down". */
const DEAD_PORT = envPort("DOCTOR_TEST_DEAD_PORT", 4219);
/** A stand-in in front of the sandbox's auth server that publishes a discovery document of the test's making. */
const DISCOVERY_PORT = envPort("DOCTOR_TEST_DISCOVERY_PORT", 4218);
// App origins are only names in redirect URIs and CORS rules; no app runs for these tests.
const APP = "http://localhost:4210"; // registered redirect URI and CORS origin
const APP_NOT_REGISTERED = "http://localhost:4211"; // CORS origin only
const APP_NO_CORS = "http://localhost:4212"; // redirect URI only

const SECRET = "doctor-test-partner-secret";
const WRONG_SECRET = "doctor-test-wrong-secret";
const AUTH_SECRET = "doctor-test-auth-secret-0123456789abcdef0123";
const root = path.resolve(import.meta.dirname, "../..");

let sandbox: RunningSandbox;
let workDir: string;

beforeAll(async () => {
  sandbox = await startSandbox({
    authPort: AUTH_PORT,
    apiPort: API_PORT,
    blobPort: BLOB_PORT,
    // Registered client_secret_basic-only, so the app's default (client_secret_post) is "the wrong method".
    partnerAuthMethod: "client_secret_basic",
    partnerClientSecret: SECRET,
    redirectUris: [`${APP}/api/auth/callback/esign`, `${APP_NO_CORS}/api/auth/callback/esign`],
    corsOrigins: [APP, APP_NOT_REGISTERED],
  });
  // The doctor runs in an empty directory, so no developer's .env files take part unless a test writes one.
  workDir = await mkdtemp(path.join(tmpdir(), "doctor-test-"));
  await mkdir(path.join(workDir, "backups"));
});

afterAll(async () => {
  await sandbox?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

/** The configuration the partner would deploy with: everything right. */
function goodEnv(): Record<string, string> {
  return {
    AUTH_SECRET,
    AUTH_URL: APP,
    ESIGN_AUTH_URL: `http://localhost:${AUTH_PORT}`,
    ESIGN_API_URL: `http://localhost:${API_PORT}`,
    ESIGN_CLIENT_ID: "partner-app",
    ESIGN_CLIENT_SECRET: SECRET,
    ESIGN_TOKEN_AUTH_METHOD: "client_secret_basic",
    ESIGN_STORAGE_ORIGINS: `http://127.0.0.1:${BLOB_PORT}`,
    // A folder made in beforeAll: a reachable, writable backup target.
    BACKUP_TARGET: path.join(workDir, "backups"),
  };
}

/** The sandbox's own rule (sandbox/blob-storage.ts). */
const SANDBOX_CORS = { allowedMethods: "PUT,OPTIONS,GET,HEAD", allowedHeaders: "content-type,content-md5,x-ms-*", exposedHeaders: "content-md5,etag,x-ms-*" };

/** Replaces the sandbox storage's CORS rule for the test's app origins. */
async function setStorageCors(rule: typeof SANDBOX_CORS): Promise<void> {
  const service = new BlobServiceClient(`http://127.0.0.1:${BLOB_PORT}/${ACCOUNT}`, new StorageSharedKeyCredential(ACCOUNT, ACCOUNT_KEY));
  await service.setProperties({ cors: [{ allowedOrigins: [APP, APP_NOT_REGISTERED].join(","), ...rule, maxAgeInSeconds: 60 }] });
}

/**
 * Forwards everything to the sandbox's auth server except discovery, which it serves rewritten: a service
 * publishing another issuer form, other scopes or other logout features than the sandbox does.
 */
async function startDiscoveryStandIn(port: number, target: string, rewrite: (d: Record<string, unknown>) => Record<string, unknown>): Promise<Server> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== "host" && k !== "content-length")) as Record<string, string>;
    const answer = await fetch(`${target}${req.url}`, {
      method: req.method,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
      redirect: "manual",
    });
    let body = Buffer.from(await answer.arrayBuffer());
    if (req.url === "/.well-known/openid-configuration") body = Buffer.from(JSON.stringify(rewrite(JSON.parse(body.toString()))));
    const out = Object.fromEntries([...answer.headers].filter(([k]) => !["content-length", "content-encoding", "transfer-encoding"].includes(k)));
    res.writeHead(answer.status, out).end(body);
  });
  // Every interface, so that "localhost" reaches it whichever address it resolves to first.
  await new Promise<void>((resolve) => server.listen(port, resolve));
  return server;
}

type Run = { code: number; stdout: string; stderr: string };

/** Runs `npm run doctor`'s command as a child process with exactly this environment (plus PATH). */
function runDoctor(env: Record<string, string>, args: string[] = []): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      path.join(root, "node_modules/.bin/tsx"),
      ["--tsconfig", path.join(root, "tsconfig.json"), "--conditions=react-server", path.join(root, "scripts/doctor.ts"), ...args],
      { cwd: workDir, env: { PATH: process.env.PATH ?? "", NODE_ENV: "development", ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function runJson(env: Record<string, string>): Promise<{ run: Run; checks: CheckResult[] }> {
  const run = await runDoctor(env, ["--json"]);
  return { run, checks: (JSON.parse(run.stdout) as { checks: CheckResult[] }).checks };
}

const failed = (checks: CheckResult[]) => checks.filter((c) => c.status === "fail").map((c) => c.id);

function expectNoSecretIn(run: Run) {
  for (const secret of [SECRET, WRONG_SECRET, AUTH_SECRET]) {
    expect(run.stdout).not.toContain(secret);
    expect(run.stderr).not.toContain(secret);
  }
}

describe("npm run doctor against the sandbox", () => {
  it("passes every check with a right configuration and exits 0", async () => {
    const run = await runDoctor(goodEnv());
    console.log(run.stdout);
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split("\n").slice(0, -1);
    // The sandbox advertises back-channel logout (with sid) and revocation: every check passes, none warns.
    expect(lines.every((line) => line.startsWith("✓ "))).toBe(true);
    expect(lines.find((line) => line.startsWith("✓ Back-channel logout"))).toContain("with sid (per session)");
    expect(lines.some((line) => line.startsWith("✓ Token revocation"))).toBe(true);
    expect(run.stdout).toContain(`register ${APP}/api/auth/backchannel-logout as the client's back-channel logout URI`);
    expect(run.stdout.trim().split("\n").at(-1)).toBe("All 14 checks passed.");
    expectNoSecretIn(run);
  });

  it("prints the same checks as JSON with --json", async () => {
    const { run, checks } = await runJson(goodEnv());
    expect(run.code).toBe(0);
    expect(checks.map((c) => c.id)).toEqual([
      "config",
      "brand",
      "discovery",
      "endpoints",
      "jwks",
      "client",
      "redirect-uri",
      "scopes",
      "backchannel-logout",
      "revocation",
      "api",
      `storage-cors:http://127.0.0.1:${BLOB_PORT}`,
      "clock",
      "backups",
    ]);
    expect(checks.filter((c) => c.status !== "pass").map((c) => [c.id, c.status])).toEqual([]);
  });

  it("reads the secret from .env files in the working directory, like the app", async () => {
    const env = goodEnv();
    delete (env as Partial<typeof env>).ESIGN_CLIENT_SECRET;
    await writeFile(path.join(workDir, ".env.local"), `ESIGN_CLIENT_SECRET=${WRONG_SECRET}\n`);
    try {
      const { run, checks } = await runJson(env);
      expect(failed(checks)).toEqual(["client"]);
      expect(run.code).toBe(1);
      expectNoSecretIn(run);
    } finally {
      await rm(path.join(workDir, ".env.local"));
    }
  });

  const cases: { name: string; env: () => Record<string, string>; failing: string[]; fix: RegExp; detail?: RegExp; storageRule?: typeof SANDBOX_CORS }[] = [
    {
      name: "a wrong secret",
      env: () => ({ ...goodEnv(), ESIGN_CLIENT_SECRET: WRONG_SECRET }),
      failing: ["client"],
      fix: /Copy ESIGN_CLIENT_ID and ESIGN_CLIENT_SECRET again from the partner portal/,
    },
    {
      name: "the wrong auth method (app default client_secret_post, client registered client_secret_basic)",
      env: () => {
        const env: Partial<Record<string, string>> = goodEnv();
        delete env.ESIGN_TOKEN_AUTH_METHOD;
        return env as Record<string, string>;
      },
      failing: ["client"],
      fix: /Set ESIGN_TOKEN_AUTH_METHOD=client_secret_basic/,
    },
    {
      name: "an unregistered redirect URI",
      env: () => ({ ...goodEnv(), AUTH_URL: APP_NOT_REGISTERED }),
      failing: ["redirect-uri"],
      fix: new RegExp(`Register exactly ${APP_NOT_REGISTERED}/api/auth/callback/esign as a redirect URI`),
    },
    {
      name: "storage CORS without the app's origin",
      env: () => ({ ...goodEnv(), AUTH_URL: APP_NO_CORS }),
      failing: [`storage-cors:http://127.0.0.1:${BLOB_PORT}`],
      fix: new RegExp(`Add a CORS rule on http://127.0.0.1:${BLOB_PORT}'s blob service: origin ${APP_NO_CORS}`),
    },
    {
      name: "the API URL pointing nowhere",
      env: () => ({ ...goodEnv(), ESIGN_API_URL: `http://127.0.0.1:${DEAD_PORT}` }),
      failing: ["api"],
      fix: /Check ESIGN_API_URL/,
    },
    {
      name: "the auth server down",
      env: () => ({ ...goodEnv(), ESIGN_AUTH_URL: `http://localhost:${DEAD_PORT}` }),
      failing: ["discovery"],
      fix: /Check ESIGN_AUTH_URL and that the auth server is up/,
    },
    {
      name: "a public client asking for offline_access",
      env: () => {
        const env: Partial<Record<string, string>> = {
          ...goodEnv(),
          ESIGN_CLIENT_ID: "dev-client",
          ESIGN_SCOPES: "openid email service.api offline_access",
        };
        delete env.ESIGN_CLIENT_SECRET;
        delete env.ESIGN_TOKEN_AUTH_METHOD;
        return env as Record<string, string>;
      },
      failing: ["scopes"],
      fix: /Remove offline_access from ESIGN_SCOPES/,
    },
    {
      name: "a client asking for a scope it may not have (dev-client and profile)",
      env: () => {
        const env: Partial<Record<string, string>> = { ...goodEnv(), ESIGN_CLIENT_ID: "dev-client", ESIGN_SCOPES: "openid profile email service.api" };
        delete env.ESIGN_CLIENT_SECRET;
        delete env.ESIGN_TOKEN_AUTH_METHOD;
        return env as Record<string, string>;
      },
      failing: ["redirect-uri"],
      fix: /Remove the scopes this client may not request from ESIGN_SCOPES/,
    },
    {
      name: "a storage CORS rule exposing only x-ms-request-id",
      env: goodEnv,
      storageRule: { ...SANDBOX_CORS, exposedHeaders: "x-ms-request-id" },
      failing: [`storage-cors:http://127.0.0.1:${BLOB_PORT}`],
      fix: /exposed headers content-md5,x-ms-\*/,
      detail: /the browser cannot read content-md5/,
    },
  ];

  it.each(cases)("reports $name as that one ✗ with its fix and exits 1", async ({ env, failing, fix, detail, storageRule }) => {
    if (storageRule) await setStorageCors(storageRule);
    try {
      const text = await runDoctor(env());
      expect(text.code).toBe(1);
      const failure = text.stdout.split("\n").findIndex((line) => line.startsWith("✗ "));
      expect(text.stdout.split("\n")[failure + 1]).toMatch(/^ {4}fix: /);
      expect(text.stdout).toMatch(fix);
      if (detail) expect(text.stdout).toMatch(detail);
      expectNoSecretIn(text);

      const { run, checks } = await runJson(env());
      expect(run.code).toBe(1);
      expect(failed(checks)).toEqual(failing);
      expect(checks.find((c) => c.status === "fail")?.fix).toMatch(fix);
    } finally {
      if (storageRule) await setStorageCors(SANDBOX_CORS);
    }
  });

  it("accepts a storage CORS rule exposing * (the common rule), though a refused PUT cannot show content-md5", async () => {
    // Methods as the doctor's fix advises (PUT and OPTIONS, no GET): the probe is a PUT, like the browser's.
    await setStorageCors({ allowedMethods: "PUT,OPTIONS", allowedHeaders: "content-type,x-ms-*", exposedHeaders: "*" });
    try {
      const { run, checks } = await runJson(goodEnv());
      expect(checks.find((c) => c.id.startsWith("storage-cors"))).toMatchObject({ status: "pass" });
      expect(run.code).toBe(0);
    } finally {
      await setStorageCors(SANDBOX_CORS);
    }
  });

  describe("against a discovery document of the service's own making", () => {
    let standIn: Server;
    let rewrite: (discovery: Record<string, unknown>) => Record<string, unknown> = (d) => d;
    const standInUrl = `http://localhost:${DISCOVERY_PORT}`;

    beforeAll(async () => {
      standIn = await startDiscoveryStandIn(DISCOVERY_PORT, sandbox.authUrl, (d) => rewrite(d));
    });
    afterAll(() => new Promise<void>((resolve) => standIn?.close(() => resolve())));

    /** The sandbox's discovery as served from the stand-in's address, then changed by `change`. */
    const served = (issuer: string, change: (d: Record<string, unknown>) => Record<string, unknown> = (d) => d) => {
      rewrite = (d) => change({ ...d, issuer, authorization_endpoint: `${standInUrl}/connect/authorize`, token_endpoint: `${standInUrl}/connect/token` });
    };

    it("accepts an issuer with a trailing slash, set exactly as discovery publishes it", async () => {
      served(`${standInUrl}/`);
      const { run, checks } = await runJson({ ...goodEnv(), ESIGN_AUTH_URL: `${standInUrl}/` });
      expect(checks.find((c) => c.id === "discovery")).toMatchObject({ status: "pass", detail: `issuer ${standInUrl}/` });
      expect(failed(checks)).toEqual([]);
      expect(run.code).toBe(0);
    });

    it("names the exact issuer to set when ESIGN_AUTH_URL lacks its trailing slash", async () => {
      served(`${standInUrl}/`);
      const { run, checks } = await runJson({ ...goodEnv(), ESIGN_AUTH_URL: standInUrl });
      expect(checks.find((c) => c.id === "discovery")).toMatchObject({ status: "fail", fix: `Set ESIGN_AUTH_URL=${standInUrl}/ (id_tokens are checked against the issuer).` });
      expect(run.code).toBe(1);
    });

    it("warns, and exits 0, when scopes_supported omits service.api though the service grants it", async () => {
      served(standInUrl, (d) => ({ ...d, scopes_supported: (d.scopes_supported as string[]).filter((s) => s !== "service.api") }));
      const text = await runDoctor({ ...goodEnv(), ESIGN_AUTH_URL: standInUrl });
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/^! Scopes: not in discovery's scopes_supported: service\.api /m);
      expect(text.stdout).toMatch(/check the granted scopes on the account page/);
      expect(text.stdout).not.toMatch(/^✗ /m);
    });

    it("reports back-channel logout and revocation as ✓ when discovery advertises them, with the URI to register", async () => {
      served(standInUrl, (d) => ({
        ...d,
        backchannel_logout_supported: true,
        backchannel_logout_session_supported: true,
        revocation_endpoint: `${standInUrl}/token/revocation`,
      }));
      const { checks } = await runJson({ ...goodEnv(), ESIGN_AUTH_URL: standInUrl });
      expect(checks.find((c) => c.id === "backchannel-logout")).toMatchObject({ status: "pass", detail: expect.stringContaining(`register ${APP}/api/auth/backchannel-logout`) });
      expect(checks.find((c) => c.id === "revocation")).toMatchObject({ status: "pass" });
    });
  });

  describe("backups", () => {
    it("passes a reachable, writable folder target and leaves no probe file in it", async () => {
      const { checks } = await runJson(goodEnv());
      expect(checks.find((c) => c.id === "backups")).toMatchObject({ status: "pass", detail: expect.stringContaining("reachable and writable; no backup in it yet") });
      expect(await readdir(path.join(workDir, "backups"))).toEqual([]);
    });

    it("fails a target it cannot reach, naming the target, and without the key", async () => {
      const key = "q2Zb8m2v1rQ4c0YfQm3oJ3c9c8Yx0R4cX7sA1bC2dE4=";
      const { checks, run } = await runJson({ ...goodEnv(), BACKUP_TARGET: path.join(workDir, "no-such-volume"), BACKUP_ENCRYPTION_KEY: key });
      expect(checks.find((c) => c.id === "backups")).toMatchObject({ status: "fail", detail: expect.stringContaining(`folder ${path.join(workDir, "no-such-volume")} could not be reached`) });
      expect(run.stdout).not.toContain(key);
    });

    it("says that with PostgreSQL, backing up is the database's own job", async () => {
      const { checks } = await runJson({ ...goodEnv(), DATABASE_URL: "postgresql://app@127.0.0.1:1/app" });
      expect(checks.find((c) => c.id === "backups")).toMatchObject({ status: "pass", detail: expect.stringContaining("backing it up is the database's own job") });
    });

    it("warns when no target is set", async () => {
      const env = goodEnv();
      delete (env as Partial<typeof env>).BACKUP_TARGET;
      const { checks } = await runJson(env);
      expect(checks.find((c) => c.id === "backups")).toMatchObject({ status: "warn", fix: expect.stringContaining("BACKUP_TARGET") });
    });
  });

  it("leaves nothing behind: no token issued, no grant, no document", async () => {
    const [tokens, stats, documents] = await Promise.all(
      ["issued-tokens", "stats", "documents"].map(async (route) => (await fetch(`${sandbox.apiUrl}/_sandbox/${route}`)).json()),
    );
    expect(tokens).toEqual({ tokens: [] });
    expect(stats.grants).toEqual({ authorization_code: 0, refresh_token: 0 });
    expect(documents).toEqual({ documents: [] });
    // It did talk to the token endpoint: every answer was a refusal of the made-up code or of the client.
    const statuses = Object.keys(stats.operations.token);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((status) => status === "400" || status === "401")).toBe(true);
  });
});
