import { test, expect } from "../fixtures/test";
import { urls } from "../ports";

type Readiness = { status: string; checks: { name: string; state: string; latencyMs: number; detail?: string }[] };

const OUTAGE_MS = 4_000;

test.describe("health and readiness", () => {
  test("liveness answers fast without touching any dependency", async ({ request }) => {
    const started = Date.now();
    const res = await request.get(`${urls.app}/api/health`);
    expect(res.status()).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
    expect(Date.now() - started).toBeLessThan(1_000);
    // Excluded from proxy.ts: no CSP (nothing to render) and no session work; still gets a request id.
    expect(res.headers()["content-security-policy"]).toBeUndefined();
    expect(res.headers()["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("readiness names every check with its state and latency, and no secret", async ({ request }) => {
    const res = await request.get(`${urls.app}/api/health/ready`);
    expect(res.status()).toBe(200);
    const body = (await res.json()) as Readiness;
    expect(body.status).toBe("ready");
    expect(body.checks.map((c) => [c.name, c.state])).toEqual([
      ["config", "ok"],
      ["auth", "ok"],
      ["api", "ok"],
    ]);
    for (const check of body.checks) expect(check.latencyMs).toBeLessThanOrEqual(2_000);
    const text = JSON.stringify(body);
    for (const secret of ["partner-app-secret", "e2e-only-auth-secret", urls.api, urls.auth]) expect(text).not.toContain(secret);
  });

  for (const part of ["api", "auth"] as const) {
    test(`answers 503 naming the ${part} check while the sandbox's ${part} server is down, and 200 once it is back`, async ({ request, admin }) => {
      await admin.outage(part, OUTAGE_MS);
      const down = await request.get(`${urls.app}/api/health/ready`);
      expect(down.status()).toBe(503);
      const body = (await down.json()) as Readiness;
      expect(body.status).toBe("not_ready");
      const failed = body.checks.filter((c) => c.state === "fail");
      expect(failed.map((c) => c.name)).toEqual([part]);
      expect(failed[0]!.detail).toMatch(/unreachable|no answer/);
      expect(failed[0]!.latencyMs).toBeLessThanOrEqual(2_100);
      // Liveness stays up: an outage of the service must not get the app restarted.
      expect((await request.get(`${urls.app}/api/health`)).status()).toBe(200);

      await expect
        .poll(async () => (await request.get(`${urls.app}/api/health/ready`)).status(), { timeout: OUTAGE_MS + 10_000, intervals: [500] })
        .toBe(200);
    });
  }
});
