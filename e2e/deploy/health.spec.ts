import { test, expect } from "../fixtures/test";
import { urls } from "../ports";

type Dependency = { name: string; state: "ok" | "fail" | "unknown"; latencyMs?: number; detail?: string; ageSeconds?: number };
type Readiness = { status: string; checks: { name: string; state: string; detail?: string }[]; dependencies: Dependency[] };

const OUTAGE_MS = 12_000;
const ready = `${urls.app}/api/health/ready`;

test.describe("health and readiness", () => {
  test("liveness answers without touching any dependency", async ({ request }) => {
    const res = await request.get(`${urls.app}/api/health`);
    expect(res.status()).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
    // Excluded from proxy.ts: no CSP (nothing to render) and no session work; still gets a request id.
    expect(res.headers()["content-security-policy"]).toBeUndefined();
    expect(res.headers()["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("readiness is this instance's verdict; the dependencies are named beside it, with no secret", async ({ request }) => {
    let body: Readiness | undefined;
    await expect
      .poll(async () => {
        const res = await request.get(ready);
        expect(res.status()).toBe(200);
        body = (await res.json()) as Readiness;
        return body.dependencies.map((d) => [d.name, d.state]);
      })
      .toEqual([
        ["auth", "ok"],
        ["api", "ok"],
        ["database", "ok"],
        ["session-store", "ok"],
      ]);
    expect(body!.status).toBe("ready");
    expect(body!.checks).toEqual([
      { name: "config", state: "ok" },
      { name: "draining", state: "ok" },
    ]);
    const text = JSON.stringify(body);
    for (const secret of ["partner-app-secret", "e2e-only-auth-secret", urls.api, urls.auth]) expect(text).not.toContain(secret);
  });

  test("stays 200 while the sandbox's API and auth server are both down, naming them as failing, and back to ok after", async ({ request, admin }) => {
    // The admin routes live on the API server: switch the auth server off first.
    await admin.outage("auth", OUTAGE_MS);
    await admin.outage("api", OUTAGE_MS);
    const statuses: number[] = [];
    const failing = async () => {
      const res = await request.get(ready);
      statuses.push(res.status());
      const body = (await res.json()) as Readiness;
      return body.dependencies.filter((d) => d.state === "fail").map((d) => d.name);
    };
    await expect.poll(failing, { timeout: OUTAGE_MS, intervals: [250] }).toEqual(["auth", "api"]);
    const body = (await (await request.get(ready)).json()) as Readiness;
    for (const dependency of body.dependencies.filter((d) => d.state === "fail")) expect(dependency.detail).toMatch(/unreachable|no answer/);
    // Liveness stays up too: an outage of the service must not get the app restarted.
    expect((await request.get(`${urls.app}/api/health`)).status()).toBe(200);

    await expect.poll(failing, { timeout: OUTAGE_MS + 10_000, intervals: [500] }).toEqual([]);
    expect([...new Set(statuses)], "readiness statuses seen during the outage").toEqual([200]);
  });

  test("1,000 readiness hits in 10 s make at most a handful of calls to the service", async ({ request, admin }) => {
    test.setTimeout(60_000);
    await admin.reset();
    const statuses: number[] = [];
    const started = Date.now();
    // 100 batches of 10, one batch every 100 ms (longer when the machine is busy).
    for (let batch = 0; batch < 100; batch++) {
      const batchStarted = Date.now();
      statuses.push(...(await Promise.all(Array.from({ length: 10 }, async () => (await request.get(ready)).status()))));
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 100 - (Date.now() - batchStarted))));
    }
    expect(statuses).toHaveLength(1_000);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const stats = await admin.stats();
    const discovery = Object.values(stats.operations.discovery ?? {}).reduce((a, b) => a + b, 0);
    const getuserinfo = Object.values(stats.operations.getuserinfo ?? {}).reduce((a, b) => a + b, 0);
    const seconds = (Date.now() - started) / 1000;
    console.log(`1,000 readiness hits in ${seconds.toFixed(1)} s: ${discovery} discovery and ${getuserinfo} getuserinfo calls at the sandbox`);
    // At most one probe round per 5 s (lib/health/dependency-probes.ts), one call per dependency each.
    const rounds = Math.ceil(seconds / 5) + 1;
    expect(discovery).toBeGreaterThan(0);
    expect(discovery).toBeLessThanOrEqual(rounds);
    expect(getuserinfo).toBeLessThanOrEqual(rounds);
  });
});
