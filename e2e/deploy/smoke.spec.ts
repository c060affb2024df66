import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { inflateRawSync } from "node:zlib";
import { test, expect } from "@playwright/test";
import { startProcess, waitForHttp, type RunningProcess } from "../../scripts/lib/child-process";
import { envPort } from "../../scripts/lib/env-port";
import { users } from "../fixtures/users";
import { startStandaloneApp, type StandaloneApp } from "./standalone-server";

/**
 * `npm run smoke -- <URL>` run as an operator runs it (a child process, credentials in its environment) against
 * standalone production builds on a sandbox of this spec's own: one deployment that works, and broken ones.
 * Own ports, env-overridable: the sandbox registers this spec's apps alone, and the second app's origin is left
 * out of the storage's CORS rules on purpose.
 */
const AUTH_PORT = envPort("E2E_SMOKE_AUTH_PORT", 4870);
const API_PORT = envPort("E2E_SMOKE_API_PORT", 4871);
const BLOB_PORT = envPort("E2E_SMOKE_BLOB_PORT", 4872);
const APP_PORT = envPort("E2E_SMOKE_APP_PORT", 4873);
const NO_CORS_APP_PORT = envPort("E2E_SMOKE_NO_CORS_APP_PORT", 4874);
const NO_CORS_PROXY_PORT = envPort("E2E_SMOKE_NO_CORS_PROXY_PORT", 4875);
const APP = `http://localhost:${APP_PORT}`;
// The broken deployment is reached through a recording proxy of this spec's: it sees the session cookie and the
// SAS the browser holds, which the smoke's saved trace must not.
const NO_CORS_APP = `http://localhost:${NO_CORS_PROXY_PORT}`;
const API = `http://127.0.0.1:${API_PORT}`;

const WRONG_PASSWORD = "not-alice's pässword&%+";
const STEP_NAMES = ["app", "sign-in", "account", "upload", "list", "remove", "sign-out"];

let sandbox: RunningProcess | undefined;
const apps: StandaloneApp[] = [];
let noCorsProxy: RecordingProxy | undefined;

type RecordingProxy = {
  /** Every cookie value the browser sent or was sent, by cookie name. */
  cookies: Map<string, Set<string>>;
  /** Every SAS signature (`sig=`) in an answer's body. */
  signatures: Set<string>;
  close: () => Promise<void>;
};

/** Forwards localhost:`port` to the app at `target`, Host kept (the app's AUTH_URL is this origin), noting cookies and SAS signatures. */
async function startRecordingProxy(port: number, target: number): Promise<RecordingProxy> {
  const cookies = new Map<string, Set<string>>();
  const signatures = new Set<string>();
  const note = (name: string, value: string) => {
    if (value) cookies.set(name.trim(), (cookies.get(name.trim()) ?? new Set()).add(value.trim()));
  };
  const server: Server = createServer((req, res) => {
    for (const pair of (req.headers.cookie ?? "").split(";")) if (pair.includes("=")) note(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
    // Plain bodies, so that the signatures can be read from them.
    const headers = { ...req.headers };
    delete headers["accept-encoding"];
    const upstream = httpRequest({ host: "127.0.0.1", port: target, method: req.method, path: req.url, headers }, (answer) => {
      for (const line of answer.headers["set-cookie"] ?? []) {
        const pair = line.split(";")[0]!;
        note(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      const chunks: Buffer[] = [];
      answer.on("data", (chunk: Buffer) => chunks.push(chunk));
      answer.on("end", () => {
        for (const match of Buffer.concat(chunks).toString("utf8").matchAll(/[?&]sig=([^&"\s]+)/g)) signatures.add(match[1]!);
      });
      answer.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  server.listen(port, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return { cookies, signatures, close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  sandbox = startProcess("sandbox-smoke", process.execPath, ["--import", "tsx", "sandbox/main.ts"], {
    env: {
      ...process.env,
      SANDBOX_AUTH_PORT: String(AUTH_PORT),
      SANDBOX_API_PORT: String(API_PORT),
      SANDBOX_BLOB_PORT: String(BLOB_PORT),
      SANDBOX_REDIRECT_URIS: [APP, NO_CORS_APP].map((u) => `${u}/api/auth/callback/esign`).join(","),
      // NO_CORS_APP may sign in, but the storage refuses its browser's PUT.
      SANDBOX_CORS_ORIGINS: APP,
      SANDBOX_BACKCHANNEL_LOGOUT_URI: `${APP}/api/auth/backchannel-logout`,
    },
  });
  await waitForHttp(`${API}/_sandbox/stats`, 60_000, sandbox.child);
  const env = {
    ESIGN_USE_SANDBOX: "true",
    ESIGN_AUTH_URL: `http://localhost:${AUTH_PORT}`,
    ESIGN_API_URL: API,
    ESIGN_STORAGE_ORIGINS: `http://127.0.0.1:${BLOB_PORT}`,
  };
  apps.push(
    ...(await Promise.all([
      startStandaloneApp({ dir: ".next/standalone", port: APP_PORT, name: "smoke-app", env: { ...env, AUTH_URL: APP, AUTH_SECRET: "e2e-only-smoke-app-secret-0123456789abcdef0123" } }),
      startStandaloneApp({ dir: ".next/standalone", port: NO_CORS_APP_PORT, name: "smoke-no-cors-app", env: { ...env, AUTH_URL: NO_CORS_APP, AUTH_SECRET: "e2e-only-smoke-no-cors-secret-0123456789abcdef01" } }),
    ])),
  );
  noCorsProxy = await startRecordingProxy(NO_CORS_PROXY_PORT, NO_CORS_APP_PORT);
});

test.afterAll(async () => {
  await noCorsProxy?.close();
  await Promise.all(apps.map((app) => app.stop()));
  await sandbox?.stop();
});

type Smoke = { code: number | null; stdout: string; stderr: string; outDir: string; junit: string };

/** `npm run smoke -- <url> --out=… --junit=…` as a child process, the credentials in its environment only. */
function runSmoke(url: string, credentials: { username: string; password: string }, outDir: string, signInHook?: string): Promise<Smoke> {
  const junit = path.join(outDir, "junit.xml");
  const env: NodeJS.ProcessEnv = { ...process.env, SMOKE_USERNAME: credentials.username, SMOKE_PASSWORD: credentials.password };
  if (signInHook) env.SMOKE_SIGN_IN = signInHook;
  else delete env.SMOKE_SIGN_IN;
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", "scripts/smoke.ts", url, `--out=${outDir}`, `--junit=${junit}`], { env, timeout: 150_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr, outDir, junit });
    });
  });
}

/** The entries of a zip file (a Playwright trace), inflated: the trace stores its network and snapshots compressed. */
function unzipEntries(zip: Buffer): { name: string; data: Buffer }[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: { name: string; data: Buffer }[] = [];
  for (let i = 0; i < count; i++) {
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString();
    const local = zip.readUInt32LE(at + 42);
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(dataStart, dataStart + compressedSize);
    entries.push({ name, data: method === 8 ? inflateRawSync(raw) : raw });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

/**
 * Every file the run wrote (unzipped where zipped), with stdout and stderr: none may hold the password, nor any of
 * `secrets` (cookie values, SAS signatures), in any encoding, nor a SAS signature (`sig=`) left unredacted.
 */
async function expectNoPassword(smoke: Smoke, password: string, secrets: string[] = []) {
  const forms = [password, ...secrets].flatMap((secret) => [secret, encodeURIComponent(secret), new URLSearchParams({ p: secret }).toString().slice(2)]);
  const texts: { where: string; text: string }[] = [
    { where: "stdout", text: smoke.stdout },
    { where: "stderr", text: smoke.stderr },
  ];
  const files = existsSync(smoke.outDir) ? await readdir(smoke.outDir, { recursive: true, withFileTypes: true }) : [];
  for (const file of files.filter((f) => f.isFile())) {
    const full = path.join(file.parentPath, file.name);
    const bytes = await readFile(full);
    if (file.name.endsWith(".zip")) for (const entry of unzipEntries(bytes)) texts.push({ where: `${full}:${entry.name}`, text: entry.data.toString("latin1") + entry.data.toString("utf8") });
    else texts.push({ where: full, text: bytes.toString("latin1") + bytes.toString("utf8") });
  }
  expect(texts.length, "outputs searched").toBeGreaterThan(2);
  expect(texts.filter(({ text }) => forms.some((form) => text.includes(form))).map((t) => t.where), "outputs holding the password, a cookie value or a SAS signature").toEqual([]);
  expect(texts.filter(({ text }) => /(?<![A-Za-z0-9_])sig(=|%3D)(?!\[redacted\]|%5Bredacted%5D)/i.test(text)).map((t) => t.where), "outputs holding sig=").toEqual([]);
}

/** The run's failure folder, named on stderr, and its files. */
async function failureFiles(smoke: Smoke): Promise<{ dir: string; files: string[] }> {
  const dir = /screenshot and trace of the failing step in (\S+):/.exec(smoke.stderr)?.[1];
  expect(dir, `a folder named on stderr:\n${smoke.stderr}`).toBeTruthy();
  return { dir: dir!, files: (await readdir(dir!)).sort() };
}

async function sandboxDocuments(): Promise<{ name: string; doctype: string; blob: { exists: boolean; size: number | null } }[]> {
  return ((await (await fetch(`${API}/_sandbox/documents`)).json()) as { documents: never[] }).documents;
}

test("passes every step against a standalone build on the sandbox: the file reaches the storage, the document leaves the list", async ({}, testInfo) => {
  test.setTimeout(120_000);
  const smoke = await runSmoke(APP, { username: users.alice.email, password: users.alice.password }, testInfo.outputPath("run"));
  expect(smoke.code, `${smoke.stdout}\n${smoke.stderr}`).toBe(0);
  for (const [i, name] of STEP_NAMES.entries()) expect(smoke.stdout).toMatch(new RegExp(`✓ ${i + 1} ${name} .*\\(\\d+\\.\\d s\\)`));
  const documentName = /(smoke-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.txt) \(doctype smoke\) was uploaded and removed from the list/.exec(smoke.stdout)?.[1];
  expect(documentName, smoke.stdout).toBeTruthy();
  // At the service the document stays, with its file; only the app's list let it go (the remove step checked that).
  const stored = (await sandboxDocuments()).find((d) => d.name === documentName);
  expect(stored).toMatchObject({ doctype: "smoke", blob: { exists: true } });
  expect(stored!.blob.size).toBeGreaterThan(0);
  const junit = await readFile(smoke.junit, "utf8");
  expect(junit).toContain('tests="7" failures="0" skipped="0"');
  expect(await readdir(smoke.outDir), "no failure folder beside the JUnit file").toEqual(["junit.xml"]);
  expect(smoke.stdout + smoke.stderr, "the username is never printed").not.toContain(users.alice.email);
  await expectNoPassword(smoke, users.alice.password);
});

/** A partner's own sign-in step (docs/deployment.md), by the sandbox form's labels. */
const SIGN_IN_HOOK = `export default async ({ page, username, password }) => {
  await page.getByLabel("Email").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
};
`;

test("passes against the sandbox's IdentityServer-style auth server (JWT access tokens), for a user without a customer account, signing in by a SMOKE_SIGN_IN hook", async ({}, testInfo) => {
  test.setTimeout(120_000);
  const hook = testInfo.outputPath("my-sign-in.mjs");
  await mkdir(path.dirname(hook), { recursive: true });
  await writeFile(hook, SIGN_IN_HOOK);
  const put = await fetch(`${API}/_sandbox/identity-style`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ style: "identityserver" }) });
  expect(put.status).toBe(200);
  try {
    const smoke = await runSmoke(APP, { username: users.bob.email, password: users.bob.password }, testInfo.outputPath("run"), hook);
    expect(smoke.code, `${smoke.stdout}\n${smoke.stderr}`).toBe(0);
    expect(smoke.stdout).toMatch(/✓ 2 sign-in  at http:\/\/localhost:\d+ by SMOKE_SIGN_IN's my-sign-in\.mjs, back at \/account/);
    expect(smoke.stdout).toContain("✓ 3 account  signed in; the service has no customer account for this user (its own answer)");
    expect(smoke.stdout).toMatch(/✓ 7 sign-out signed out of the app and at the service/);
    const tokens = ((await (await fetch(`${API}/_sandbox/issued-tokens`)).json()) as { tokens: string[] }).tokens;
    expect(tokens.some((t) => t.startsWith("eyJ") && t.split(".").length === 3), "the service issued JWT access tokens").toBe(true);
    await expectNoPassword(smoke, users.bob.password);
  } finally {
    await fetch(`${API}/_sandbox/identity-style`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ style: "standard" }) });
  }
});

test("a wrong password fails at sign-in in the service's words, exit 1, with a screenshot and traces that hold no password", async ({}, testInfo) => {
  test.setTimeout(90_000);
  const smoke = await runSmoke(APP, { username: users.alice.email, password: WRONG_PASSWORD }, testInfo.outputPath("run"));
  expect(smoke.code, `${smoke.stdout}\n${smoke.stderr}`).toBe(1);
  expect(smoke.stdout).toContain("✓ 1 app");
  expect(smoke.stdout).toMatch(/✗ 2 sign-in  the service did not accept the username or password/);
  expect(smoke.stdout).toContain("- 3 account  skipped");
  expect(smoke.stderr).toContain('smoke: FAILED at sign-in: the service did not accept the username or password (it says: "Wrong email or password. Please try again.")');
  const { files } = await failureFiles(smoke);
  expect(files).toEqual(["2-sign-in-trace-before-credentials.zip", "2-sign-in-trace.zip", "2-sign-in.png"]);
  expect(await readFile(smoke.junit, "utf8")).toMatch(/<failure message="sign-in: the service did not accept the username or password/);
  expect(smoke.stdout + smoke.stderr, "the username is never printed").not.toContain(users.alice.email);
  await expectNoPassword(smoke, WRONG_PASSWORD);
});

test("storage CORS without the app's origin fails at upload, naming CORS and the origin to allow, with a screenshot and a trace that hold no credential, and signs out", async ({}, testInfo) => {
  test.setTimeout(90_000);
  const revocationsBefore = ((await (await fetch(`${API}/_sandbox/stats`)).json()) as { revocations: { refresh_token: number } }).revocations.refresh_token;
  const smoke = await runSmoke(NO_CORS_APP, { username: users.alice.email, password: users.alice.password }, testInfo.outputPath("run"));
  expect(smoke.code, `${smoke.stdout}\n${smoke.stderr}`).toBe(1);
  expect(smoke.stdout).toMatch(/✓ 3 account /);
  expect(smoke.stderr).toContain(
    `smoke: FAILED at upload: the storage refused the browser's PUT (CORS: this origin is not allowed); allow ${NO_CORS_APP} in the CORS rules of http://127.0.0.1:${BLOB_PORT}`,
  );
  const { files } = await failureFiles(smoke);
  expect(files).toEqual(["4-upload-trace.zip", "4-upload.png"]);
  // The run signed in, was handed a SAS, and sent its session cookie with each request: the trace covers those
  // requests, and holds none of these values.
  const sessionCookies = [...noCorsProxy!.cookies].filter(([name]) => name.includes("session-token")).flatMap(([, values]) => [...values]);
  expect(sessionCookies.length, "session cookies seen by the proxy").toBeGreaterThan(0);
  expect(noCorsProxy!.signatures.size, "SAS signatures handed to the browser").toBeGreaterThan(0);
  const cookieValues = [...noCorsProxy!.cookies.values()].flatMap((values) => [...values]).filter((value) => value.length >= 16);
  await expectNoPassword(smoke, users.alice.password, [...cookieValues, ...noCorsProxy!.signatures]);
  // And the failed run signed out, at the app (its session cookie is refused) and at the service.
  expect(smoke.stderr).toContain("smoke: signed out after the failure: signed out of the app and at the service");
  for (const value of sessionCookies) {
    const name = [...noCorsProxy!.cookies].find(([, values]) => values.has(value))![0];
    expect((await fetch(`${NO_CORS_APP}/api/account`, { headers: { cookie: `${name}=${value}` } })).status, "the run's session at the app").toBe(401);
  }
  const stats = (await (await fetch(`${API}/_sandbox/stats`)).json()) as { revocations: { refresh_token: number } };
  expect(stats.revocations.refresh_token - revocationsBefore, "refresh tokens revoked at the service by the sign-out").toBeGreaterThan(0);
});

test("refuses a password on the command line, before any browser starts (exit 2)", async ({}, testInfo) => {
  const outDir = testInfo.outputPath("run");
  const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    execFile(process.execPath, ["--import", "tsx", "scripts/smoke.ts", APP, `--password=${WRONG_PASSWORD}`, `--out=${outDir}`], { env: { ...process.env, SMOKE_USERNAME: "x", SMOKE_PASSWORD: "y" } }, (error, _stdout, stderr) =>
      resolve({ code: error && typeof error.code === "number" ? error.code : 0, stderr }),
    );
  });
  expect(result.code).toBe(2);
  expect(result.stderr).toContain("--password: credentials are never taken from the command line");
  expect(result.stderr).not.toContain(WRONG_PASSWORD);
  expect(existsSync(outDir)).toBe(false);
});
