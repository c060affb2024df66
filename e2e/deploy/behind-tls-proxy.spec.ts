import { createWriteStream, readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { e2eChromiumExecutablePath } from "../chromium-path";
import { test, expect } from "../fixtures/test";
import { signIn, users } from "../fixtures/users";
import { urls } from "../ports";
import { SERVER_LOG_DIR } from "../server-log-scan";
import { stageFile, writeRandomFile, MiB } from "../documents/support";
import { startNginx, type RunningNginx } from "../../scripts/lib/nginx";
import { startRedisServer, type RunningRedis } from "../../scripts/lib/redis-server";
import { renderNginxSite } from "../../deploy/nginx/render-site";
import { makeSelfSignedCertificate } from "../../deploy/nginx/self-signed";
import { PUBLIC_HOST, deployPorts, deployUrls } from "./origins";
import { accessLines, sandboxEnv, startStandaloneApp, type StandaloneApp } from "./standalone-server";

// This file's own browser: the public name maps to loopback, and only this context skips certificate checks
// (the certificate is self-signed by the test). The token-leak guard still watches every request.
test.use({
  baseURL: deployUrls.publicTls,
  ignoreHTTPSErrors: true,
  launchOptions: {
    executablePath: e2eChromiumExecutablePath,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", `--host-resolver-rules=MAP ${PUBLIC_HOST} 127.0.0.1`],
  },
});

const SECRET = "e2e-only-tls-proxy-secret-0123456789abcdef012345";

/** Every origin the browser talked to, and every redirect's target. */
function watchOrigins(page: Page) {
  const origins = new Set<string>();
  const redirects: string[] = [];
  page.on("request", (req) => origins.add(new URL(req.url()).origin));
  page.on("response", (res) => {
    const location = res.headers()["location"];
    if (res.status() >= 300 && res.status() < 400 && location) redirects.push(new URL(location, res.url()).origin);
  });
  return { origins, redirects };
}

/** A request from the page itself: only the browser resolves the public name to loopback. */
async function fetchInPage(page: Page, path: string): Promise<{ status: number; requestId: string | null }> {
  return page.evaluate(async (p) => {
    const res = await fetch(p);
    return { status: res.status, requestId: res.headers.get("x-request-id") };
  }, path);
}

test.describe("behind nginx with TLS, on a public https origin", () => {
  let nginx: RunningNginx;
  let redis: RunningRedis;
  const apps: StandaloneApp[] = [];

  test.beforeAll(async () => {
    const tls = makeSelfSignedCertificate(PUBLIC_HOST);
    // Two instances redeem each refresh token once only through a shared store (docs/deployment.md, "Several instances").
    redis = await startRedisServer(deployPorts.tlsRedis);
    for (const [name, port] of [["tls-app-a", deployPorts.tlsAppA], ["tls-app-b", deployPorts.tlsAppB]] as const) {
      apps.push(
        await startStandaloneApp({
          dir: ".next/standalone",
          port,
          name,
          env: { ...sandboxEnv, AUTH_URL: deployUrls.publicTls, AUTH_SECRET: SECRET, TRUST_PROXY: "true", INSTANCE_ID: name, REDIS_URL: redis.url },
        }),
      );
    }
    const site = renderNginxSite({
      serverName: PUBLIC_HOST,
      httpsPort: deployPorts.tlsProxy,
      httpPort: deployPorts.tlsProxyHttp,
      ...tls,
      upstreamPorts: [deployPorts.tlsAppA, deployPorts.tlsAppB],
    });
    const nginxLog = createWriteStream(path.join(SERVER_LOG_DIR, "nginx.log"), { flags: "a" });
    nginx = await startNginx(site, deployPorts.tlsProxy, (line) => nginxLog.write(`${line}\n`));
  });

  test.afterAll(async () => {
    await nginx?.stop();
    await Promise.all(apps.map((app) => app.stop()));
    await redis?.stop();
  });

  test("sign-in, account, a real upload and sign-out pass; every cookie is __Secure-/__Host- and Secure; no redirect leaves the origin", async ({ page, context, admin, request }, testInfo) => {
    test.setTimeout(120_000);
    await admin.reset();
    const seen = watchOrigins(page);

    await signIn(page, users.alice);
    await expect(page).toHaveURL(`${deployUrls.publicTls}/account`);

    // The request id nginx made is the one in the response, in the app's access line and at the service.
    const account = await fetchInPage(page, "/api/account");
    expect(account.status).toBe(200);
    const requestId = account.requestId!;
    expect(requestId, "nginx's $request_id, taken because TRUST_PROXY=true").toMatch(/^[0-9a-f]{32}$/);
    const sawAtService = (await (await request.get(`${urls.api}/_sandbox/request-ids`)).json()) as { requests: { requestId: string; operation: string }[] };
    expect(sawAtService.requests).toContainEqual(expect.objectContaining({ requestId, operation: "getuserinfo" }));
    await expect
      .poll(() => apps.flatMap((app) => accessLines(readFileSync(app.logFile, "utf8"), requestId)))
      .toEqual([expect.objectContaining({ requestId, method: "GET", route: "/api/account", status: 200 })]);

    const file = await writeRandomFile(testInfo.outputPath("behind-proxy.pdf"), 1 * MiB + 7);
    await stageFile(page, file);
    await page.getByLabel("Document type").fill("contract");
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await expect(page.getByTestId("upload-success")).toContainText(file.md5Hex);
    const [stored] = await admin.documents();
    expect(stored?.blob.md5Hex).toBe(file.md5Hex);

    const cookies = await context.cookies(deployUrls.publicTls);
    expect(cookies.map((c) => c.name)).toContain("__Secure-authjs.session-token");
    for (const cookie of cookies) {
      expect(cookie.name, `${cookie.name} is prefixed`).toMatch(/^__(Secure|Host)-/);
      expect(cookie.secure, `${cookie.name} is Secure`).toBe(true);
    }

    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    // The sandbox publishes an end_session_endpoint: the service asks whether to end its session too, then
    // sends the browser back to the public origin (the registered post-logout redirect URI).
    await page.getByRole("button", { name: "Yes, sign me out" }).click();
    await page.waitForURL(`${deployUrls.publicTls}/?state=signed-out`);
    await expect(page.getByTestId("signed-out")).toBeVisible();
    expect((await fetchInPage(page, "/api/account")).status).toBe(401);

    // Only the public origin, the service's sign-in page and storage: never an instance's own address,
    // localhost:3000 or 0.0.0.0 (next-auth #10928, #12176).
    const allowed = [deployUrls.publicTls, new URL(urls.auth).origin, urls.blob];
    expect([...seen.origins].filter((o) => !allowed.includes(o))).toEqual([]);
    expect(seen.redirects.filter((o) => !allowed.includes(o))).toEqual([]);
    expect(seen.redirects).toContain(deployUrls.publicTls);
  });
});
