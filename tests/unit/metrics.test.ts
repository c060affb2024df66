import { describe, expect, it, vi } from "vitest";

/** A fresh copy of a module, as Next's production build gives each bundle its own. */
async function freshImport<T>(path: string): Promise<T> {
  vi.resetModules();
  return (await import(/* @vite-ignore */ path)) as T;
}

type Metrics = typeof import("@/lib/metrics/registry");

// Recorded only when an instance serves them (METRICS_PORT); nothing listens in this test.
process.env.METRICS_PORT = "0";

describe("metrics", () => {
  it("keeps one registry per process, whichever copy of the module records", async () => {
    const first = await freshImport<typeof import("@/lib/metrics/documents")>("@/lib/metrics/documents");
    const second = await freshImport<typeof import("@/lib/metrics/documents")>("@/lib/metrics/documents");
    first.recordDocumentCreated();
    second.recordDocumentCreated();
    second.recordUploadRenewal();
    const { getMetricsRegistry } = await freshImport<Metrics>("@/lib/metrics/registry");
    const text = await getMetricsRegistry().metrics();
    expect(text).toMatch(/^esign_documents_created_total 2$/m);
    expect(text).toMatch(/^esign_upload_renewals_total 1$/m);
    expect(text).toMatch(/^esign_build_info\{build_id="[^"]+",node_version="v\d+/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes \d+/m);
    expect(text).toMatch(/^esign_heap_size_limit_bytes \d+/m);
  });

  it("labels requests by route family, never by raw path or query", async () => {
    const { recordHttpRequest, routeLabel } = await import("@/lib/metrics/http-requests");
    expect(routeLabel("/api/auth/callback/esign")).toBe("/api/auth/callback");
    expect(routeLabel("/_next/static/chunks/abc123.js")).toBe("/_next/static");
    expect(routeLabel("/wp-admin/setup.php")).toBe("other");
    expect(routeLabel("/api/auth/../../etc")).toBe("/api/auth/other");
    expect(routeLabel("/api/auth/backchannel-logout")).toBe("/api/auth/backchannel-logout");
    expect(routeLabel("/api/sessions")).toBe("/api/sessions");
    expect(routeLabel("/api/sessions/3f1c9a7e-session-id")).toBe("/api/sessions/:id");
    expect(routeLabel("/api/sessions/a/b")).toBe("other");
    expect(routeLabel("/api/documents/0b9d3c0e-8f7a-4a51-9d3c-0e8f7a4a519d/events")).toBe("/api/documents/:itemId/events");
    expect(routeLabel("/api/documents/0b9d3c0e-8f7a-4a51-9d3c-0e8f7a4a519d")).toBe("/api/documents/:itemId");
    expect(routeLabel("/api/documents/export")).toBe("/api/documents/export");
    expect(routeLabel("/documents/0b9d3c0e-8f7a-4a51-9d3c-0e8f7a4a519d")).toBe("/documents/:itemId");
    expect(routeLabel("/brand/mark.svg")).toBe("/brand");
    recordHttpRequest("GET", "/account", 200, 0.01);
    recordHttpRequest("BREW", "/secret-looking/alice@example.com", 404, 0.01);
    const { getMetricsRegistry } = await import("@/lib/metrics/registry");
    const text = await getMetricsRegistry().metrics();
    expect(text).toContain('esign_http_requests_total{method="GET",route="/account",status="200"} 1');
    expect(text).toContain('esign_http_requests_total{method="other",route="other",status="404"} 1');
    expect(text).not.toContain("alice@example.com");
  });

  it("counts service calls by operation and outcome, and refresh outcomes", async () => {
    const { recordServiceCall, outcomeOfStatus } = await import("@/lib/metrics/service-calls");
    const { recordRefresh, recordReuseSuspect, recordRefreshLockWait } = await import("@/lib/metrics/refresh");
    recordServiceCall("refresh", outcomeOfStatus(200), 0.02);
    recordServiceCall("refresh", outcomeOfStatus(400), 0.02);
    recordServiceCall("getuserinfo", "timeout", 10);
    recordRefresh("refreshed");
    recordRefresh("waited");
    recordRefresh("waited");
    recordReuseSuspect();
    recordRefreshLockWait(0.03);
    const { getMetricsRegistry } = await import("@/lib/metrics/registry");
    const text = await getMetricsRegistry().metrics();
    expect(text).toContain('esign_service_request_duration_seconds_count{operation="refresh",outcome="ok"} 1');
    expect(text).toContain('esign_service_request_duration_seconds_count{operation="refresh",outcome="client_error"} 1');
    expect(text).toContain('esign_service_request_duration_seconds_count{operation="getuserinfo",outcome="timeout"} 1');
    expect(text).toContain('esign_token_refreshes_total{outcome="refreshed"} 1');
    expect(text).toContain('esign_token_refreshes_total{outcome="waited"} 2');
    expect(text).toContain("esign_refresh_reuse_suspects_total 1");
    expect(text).toContain("esign_refresh_lock_wait_seconds_count 1");
  });

  it("times database operations by operation and outcome, a failed open included, with no user data in labels", async () => {
    const { documentRecordsFor } = await import("@/lib/documents/document-records");
    const down = documentRecordsFor(async () => {
      throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    }, () => "postgres");
    await expect(down.listDocuments("user-key-of-alice", { limit: 10, q: "alice@example.com" })).rejects.toThrow(/database could not be opened/);
    await expect(down.getDocument("user-key-of-alice", "0b9d3c0e-8f7a-4a51-9d3c-0e8f7a4a519d")).rejects.toThrow();
    const { getMetricsRegistry } = await import("@/lib/metrics/registry");
    const text = await getMetricsRegistry().metrics();
    expect(text).toContain('esign_database_operations_total{database="postgres",operation="list",outcome="error"} 1');
    expect(text).toContain('esign_database_operations_total{database="postgres",operation="get",outcome="error"} 1');
    expect(text).toContain('esign_database_operation_duration_seconds_count{database="postgres",operation="list"} 1');
    expect(text).not.toMatch(/alice|0b9d3c0e/);
  });

  it("records nothing while METRICS_PORT is unset", async () => {
    const { recordDocumentCreated } = await import("@/lib/metrics/documents");
    const { getMetricsRegistry } = await import("@/lib/metrics/registry");
    const before = await getMetricsRegistry().metrics();
    delete process.env.METRICS_PORT;
    try {
      recordDocumentCreated();
    } finally {
      process.env.METRICS_PORT = "0";
    }
    expect((await getMetricsRegistry().metrics()).match(/^esign_documents_created_total \d+$/m)?.[0]).toBe(
      before.match(/^esign_documents_created_total \d+$/m)?.[0],
    );
  });

  it("reports session-store operations and active sessions, set or collected at scrape time", async () => {
    const store = await import("@/lib/metrics/session-store");
    store.recordSessionStoreOperation("redis", "get", "ok", 0.001);
    store.recordSessionStoreOperation("redis", "put", "error", 0.3);
    store.setActiveSessions("file", 3);
    let held = 7;
    store.registerActiveSessionsCollector("redis", () => held);
    const { getMetricsRegistry } = await import("@/lib/metrics/registry");
    expect(await getMetricsRegistry().metrics()).toContain('esign_active_sessions{store="redis"} 7');
    held = 9;
    const text = await getMetricsRegistry().metrics();
    expect(text).toContain('esign_active_sessions{store="redis"} 9');
    expect(text).toContain('esign_active_sessions{store="file"} 3');
    expect(text).toContain('esign_session_store_operations_total{store="redis",operation="put",outcome="error"} 1');
  });
});
