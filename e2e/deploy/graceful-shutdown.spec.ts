import net from "node:net";
import { test, expect } from "../fixtures/test";
import { signIn, users } from "../fixtures/users";
import { deployPorts, deployUrls } from "./origins";
import { sessionStoreDir } from "../session-store-scan";
import { sandboxEnv, startStandaloneApp, type StandaloneApp } from "./standalone-server";

test.use({ baseURL: deployUrls.gracefulShutdown });

test.describe("graceful shutdown", () => {
  let app: StandaloneApp | undefined;

  test.afterAll(async () => {
    await app?.stop();
  });

  test("on SIGTERM an instance answers readiness 503 first, then refuses new connections, finishes the request in flight, and exits 0 without waiting for a half-sent request", async ({
    page,
    context,
    admin,
  }) => {
    app = await startStandaloneApp({
      dir: ".next/standalone",
      port: deployPorts.gracefulShutdown,
      name: "graceful-shutdown",
      env: {
        ...sandboxEnv,
        AUTH_URL: deployUrls.gracefulShutdown,
        AUTH_SECRET: "e2e-only-shutdown-secret-0123456789abcdef0123",
        SESSION_STORE_DIR: sessionStoreDir(deployPorts.gracefulShutdown),
        // Shorter than the service's delay below, so the listener closes with the request still in flight.
        SHUTDOWN_READINESS_DELAY_MS: "1500",
      },
    });
    expect((await fetch(`${app.url}/api/health/ready`)).status).toBe(200);
    await signIn(page, users.alice);
    await admin.reset();
    // The service takes 3 s to answer, so the account request is still running when SIGTERM arrives.
    await admin.fault({ target: "getuserinfo", delayMs: 3_000, count: 1 });
    // From here on the browser stays away from the instance being stopped; the request in flight is sent
    // from Node with the session's cookies.
    const cookie = (await context.cookies(deployUrls.gracefulShutdown)).map((c) => `${c.name}=${c.value}`).join("; ");
    await page.goto("about:blank");
    const inFlight = fetch(`${app.url}/api/account`, { headers: { cookie } }).then((res) => res.status);
    // A client that has sent half a request and nothing more (a slow or stalled one): no request has started, so the
    // shutdown must not wait for it. Its connection is closed once the request in flight has finished.
    const halfSent = net.connect(deployPorts.gracefulShutdown, "127.0.0.1");
    halfSent.on("error", () => {});
    const halfSentClosed = new Promise<void>((resolve) => halfSent.once("close", () => resolve()));
    await new Promise<void>((resolve) => halfSent.once("connect", () => resolve()));
    halfSent.write("GET /api/health HTTP/1.1\r\nHost: localhost\r\n");
    await page.waitForTimeout(1_000);

    const signalledAt = Date.now();
    process.kill(app.child.pid!, "SIGTERM");
    // Readiness turns 503 while the listener still accepts: a balancer stops sending before connections fail. (Polled:
    // the signal reaches the instance a moment after kill() returns, and a probe sent at once may come first.)
    let draining: { status: number; body: string } | undefined;
    await expect
      .poll(async () => {
        const res = await fetch(`${app!.url}/api/health/ready`);
        draining = { status: res.status, body: await res.text() };
        return draining.status;
      }, { timeout: 1_500, intervals: [50] })
      .toBe(503);
    expect((JSON.parse(draining!.body) as { status: string }).status).toBe("draining");
    expect((await fetch(`${app.url}/api/health`)).status, "liveness still answers while readiness is 503").toBe(200);
    await expect
      .poll(() => fetch(`${app!.url}/api/health`).then(() => "answered", () => "refused"), { timeout: 4_000 })
      .toBe("refused");
    expect(await inFlight, "the request in flight was finished, not cut").toBe(200);
    expect(await app.exitCode()).toBe(0);
    await halfSentClosed;
    // It waited for that request (≈ 2.5 s left of the service's delay), not for the 25 s bound.
    expect(Date.now() - signalledAt).toBeLessThan(10_000);
  });
});
