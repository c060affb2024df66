import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { embeddedDatabaseDir } from "../../scripts/lib/standalone-app";
import { test, expect } from "../fixtures/test";
import { signIn, users } from "../fixtures/users";
import { deployPorts, deployUrls } from "./origins";
import { sandboxEnv, startStandaloneApp, type StandaloneApp } from "./standalone-server";

/**
 * The embedded database (PGlite) as deployed answers a write only once it is on disk: strace on the standalone
 * server sees fdatasync of the WAL between the request and its answer (docs/decisions/012-durable-pglite.md).
 * The syscalls of each step are in tests/unit/durable-pglite.test.ts; this is the server's own request path.
 */
test.use({ baseURL: deployUrls.embeddedDurability });

const AUTH_SECRET = "e2e-only-embedded-durability-auth-secret-0123456789";
const databaseDir = embeddedDatabaseDir(deployPorts.embeddedDurability);
const env = { ...sandboxEnv, AUTH_URL: deployUrls.embeddedDurability, AUTH_SECRET, DATABASE_DIR: databaseDir, SHUTDOWN_READINESS_DELAY_MS: "0" };

test.describe("the embedded database on disk", () => {
  let app: StandaloneApp | undefined;
  const traceDir = mkdtempSync(path.join(tmpdir(), "esign-e2e-durability-"));

  test.afterAll(async () => {
    await app?.stop();
    // The trace holds only the first 64 bytes of each read and write, and is removed.
    rmSync(traceDir, { recursive: true, force: true });
  });

  test("answers a recorded event only after the WAL is fdatasynced", async ({ page }) => {
    test.setTimeout(120_000);
    rmSync(databaseDir, { recursive: true, force: true });
    app = await startStandaloneApp({ dir: ".next/standalone", port: deployPorts.embeddedDurability, name: "embedded-durability", env });
    await signIn(page, users.alice);

    // Every thread of the server, each in a file of its own (-ff: in one file, a call another thread's call
    // interrupts is split over two lines), descriptors named (-yy: the WAL file's path, the client's TCP socket),
    // only the first 64 bytes of a read or write: the request line and the status line (a request line here is
    // longer than 64).
    const tracer = spawn("strace", ["-ff", "-yy", "-s", "64", "-e", "trace=fsync,fdatasync,read,write,writev", "-e", "signal=none", "-o", path.join(traceDir, "server"), "-p", String(app.child.pid)], { stdio: ["ignore", "ignore", "pipe"] });
    const tracerExited = new Promise<number | null>((resolve) => tracer.once("exit", resolve));
    await new Promise<void>((resolve, reject) => {
      tracer.stderr.on("data", (chunk: Buffer) => chunk.toString().includes("attached") && resolve());
      tracerExited.then((code) => reject(new Error(`strace exited (${code}) before attaching`)));
    });

    const itemId = crypto.randomUUID();
    const report = await page.request.post(`/api/documents/${itemId}/events`, {
      data: { events: [{ id: crypto.randomUUID(), type: "created", at: new Date().toISOString(), fileId: crypto.randomUUID(), subdocid: 0, name: "durable.pdf", doctype: "contract" }] },
    });
    expect(report.status()).toBe(200);
    expect(await report.json()).toEqual({ recorded: 1 });
    tracer.kill("SIGINT");
    await tracerExited;

    // The event loop's thread reads the request, runs PGlite and writes the answer.
    const trace = readdirSync(traceDir)
      .map((name) => readFileSync(path.join(traceDir, name), "utf8"))
      .find((text) => text.includes(`"POST /api/documents/${itemId}`))
      ?.split("\n");
    expect(trace, "the thread that read the request").toBeDefined();
    const request = trace!.findIndex((line) => line.includes(`"POST /api/documents/${itemId}`));
    expect(request, "the request read from its socket").toBeGreaterThanOrEqual(0);
    // The connection, as strace names it (descriptor and both ends): other connections (probes) answer 200 too.
    const socket = trace![request]!.match(/\bread\((\d+<TCP:\[[^\]]+\]>)/)![1]!;
    const answer = trace!.findIndex((line, i) => i > request && (line.includes(`write(${socket}, "HTTP/1.1 200`) || line.includes(`writev(${socket}, [{iov_base="HTTP/1.1 200`)));
    expect(answer, "the answer written to that socket").toBeGreaterThan(request);
    const wal = new RegExp(`\\bfdatasync\\(\\d+<${realpathSync(databaseDir).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/pg_wal/[0-9A-F]{24}>\\) = 0`);
    expect(trace!.slice(request, answer).filter((line) => wal.test(line)).length).toBeGreaterThanOrEqual(1);
  });
});
