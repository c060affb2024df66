/**
 * Multi-instance demo: redis-server, PostgreSQL, the sandbox, two production instances of the app sharing refresh
 * coordination through Redis and the document records through PostgreSQL, and nginx as a round-robin load
 * balancer (no sticky sessions) in front:
 *
 *   npm run demo:scale          # http://localhost:3000
 *
 * Needs the Debian packages redis-server, postgresql and nginx (it names whichever is missing). PostgreSQL is a
 * fresh cluster in a temporary folder, removed when the demo stops. Ports: DEMO_SCALE_PORT (balancer, 3000),
 * DEMO_SCALE_APP_PORTS (4640,4641), DEMO_SCALE_REDIS_PORT (4642), DEMO_SCALE_POSTGRES_PORT (4643), SANDBOX_AUTH_PORT /
 * SANDBOX_API_PORT / SANDBOX_BLOB_PORT (4000 / 4001 / 4002, as in `npm run demo`); each instance's metrics on
 * "1" + its port (14640, 14641). Instances run with the default heap cap, as deployed.
 */
import { randomBytes } from "node:crypto";
import { findSystemBinary } from "./lib/system-binary";
import { startRedisServer } from "./lib/redis-server";
import { postgresBinary, startPostgresServer, type RunningPostgres } from "./lib/postgres-server";
import { startNginx } from "./lib/nginx";
import { startAppInstance, startSandboxProcess } from "./lib/app-cluster";
import { DEFAULT_HEAP_CAP_MIB } from "./lib/heap-cap";
import type { RunningProcess } from "./lib/child-process";

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const lbPort = num("DEMO_SCALE_PORT", 3000);
const appPorts = (process.env.DEMO_SCALE_APP_PORTS ?? "4640,4641").split(",").map(Number);
const redisPort = num("DEMO_SCALE_REDIS_PORT", 4642);
const postgresPort = num("DEMO_SCALE_POSTGRES_PORT", 4643);
const sandboxPorts = { auth: num("SANDBOX_AUTH_PORT", 4000), api: num("SANDBOX_API_PORT", 4001), blob: num("SANDBOX_BLOB_PORT", 4002) };
const publicUrl = `http://localhost:${lbPort}`;
// Readable request lines for a person watching the demo (the instances inherit this environment).
process.env.LOG_FORMAT ??= "pretty";

// Before starting anything: a missing package is named with the command that installs it.
try {
  findSystemBinary("redis-server", "redis-server");
  findSystemBinary("nginx", "nginx");
  postgresBinary("postgres");
} catch (error) {
  console.error(`demo:scale: ${(error as Error).message}`);
  process.exit(1);
}

const running: RunningProcess[] = [];
let postgres: RunningPostgres | undefined;
let stopping = false;
async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    await Promise.all(running.map((p) => p.stop()));
    // Last: the instances close their connections first.
    await postgres?.stop();
  }
  process.exit(code);
}
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));
const watch = <P extends RunningProcess>(name: string, proc: P): P => {
  running.push(proc);
  proc.child.once("exit", (code, signal) => {
    if (stopping) return;
    console.error(`demo:scale: ${name} exited (${signal ?? code}); stopping`);
    void stop(1);
  });
  return proc;
};

// Every instance must share these: AUTH_SECRET decrypts any instance's session cookie, the Server Actions
// key lets a form rendered by one instance post to the other. Per run: the sandbox forgets its grants anyway.
const authSecret = randomBytes(32).toString("base64url");
const serverActionsKey = randomBytes(32).toString("base64");
const appLog = (line: string) => console.log(line);

try {
  const redis = watch("redis-server", await startRedisServer(redisPort));
  postgres = await startPostgresServer(postgresPort);
  const sandbox = watch("sandbox", await startSandboxProcess(sandboxPorts, { appUrls: [publicUrl] }));
  for (const port of appPorts) {
    watch(
      `app :${port}`,
      await startAppInstance({
        port,
        authUrl: publicUrl,
        sandbox: sandbox.urls,
        authSecret,
        serverActionsKey,
        redisUrl: redis.url,
        // As in production (deploy/systemd, Dockerfile): a capped heap, and metrics on 1<port> (loopback).
        heapCapMiB: DEFAULT_HEAP_CAP_MIB,
        // The document records: one PostgreSQL for both (each migrates it at start-up, one at a time).
        env: { METRICS_PORT: `1${port}`, DATABASE_URL: postgres.url },
        log: appLog,
      }),
    );
  }
  const nginx = await startNginx(
    `  upstream app {
    # Round robin, no ip_hash or cookie affinity: consecutive requests of one session hit different instances.
${appPorts.map((p) => `    server 127.0.0.1:${p};`).join("\n")}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${lbPort};
    # The session cookie (encrypted tokens, possibly chunked) and Auth.js's sign-in cookies outgrow nginx's
    # 4–8 KiB header defaults, both in requests and in responses that set them.
    large_client_header_buffers 4 32k;
    proxy_buffer_size 32k;
    proxy_buffers 8 32k;
    location / {
      proxy_pass http://app;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      # Host with its port, so Auth.js and the Server Actions origin check see the public address.
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      # Shows which instance answered (browser dev tools → response headers).
      add_header X-Served-By $upstream_addr always;
    }
  }`,
    lbPort,
    (line) => console.log(line),
  );
  watch("nginx", nginx);
} catch (error) {
  console.error(`demo:scale: ${(error as Error).message}`);
  await stop(1);
}

console.log(`
  eSign partner demo, scaled out: ${publicUrl}
    nginx round robin → app instances on ${appPorts.map((p) => `127.0.0.1:${p}`).join(" and ")} (no sticky sessions)
    refresh coordination: redis-server on 127.0.0.1:${redisPort}; document records: PostgreSQL on 127.0.0.1:${postgresPort}
    sandbox at ${sandboxPorts.auth}/${sandboxPorts.api}/${sandboxPorts.blob}
    metrics: ${appPorts.map((p) => `http://127.0.0.1:1${p}/metrics`).join(" and ")}; heap cap ${DEFAULT_HEAP_CAP_MIB} MiB per instance
    every response carries X-Served-By with the instance that answered

  Sign in with one of the sandbox's users:
    alice@example.com / alice-password   (has a customer account)
    bob@example.com   / bob-password     (no customer account)

  Press Ctrl+C to stop.
`);
