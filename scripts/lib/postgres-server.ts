import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";

const DEBIAN_POSTGRES_DIR = "/usr/lib/postgresql";

export type RunningPostgres = {
  /** postgresql://app@127.0.0.1:<port>/postgres (trust authentication on loopback: a throwaway server). */
  readonly url: string;
  readonly port: number;
  /** The cluster's data folder (owned by the `postgres` user when started as root). */
  readonly dataDir: string;
  /** The postmaster's pid. */
  readonly pid: number;
  /** SIGSTOP to the postmaster and every backend: connections stay open and nothing answers (a frozen server). */
  freeze(): void;
  /** SIGCONT: the frozen server carries on where it was. */
  thaw(): void;
  /** A fast shutdown (SIGINT: open connections are cut), then the folder is removed. */
  stop(): Promise<void>;
};

/** Debian's server binaries, newest major version first: `initdb` and `postgres` are not on PATH. */
function findBinDir(): string {
  const versions = existsSync(DEBIAN_POSTGRES_DIR)
    ? readdirSync(DEBIAN_POSTGRES_DIR)
        .filter((v) => existsSync(path.join(DEBIAN_POSTGRES_DIR, v, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) {
    throw new Error("PostgreSQL's server binaries were not found: install them with `apt-get install -y postgresql` (as root), or run `npm test` as root, which installs them");
  }
  return path.join(DEBIAN_POSTGRES_DIR, versions[0]!, "bin");
}

/** PostgreSQL refuses to run as root: as root, run it as Debian's `postgres` user. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  return { uid: id("-u"), gid: id("-g") };
}

async function waitUntilAccepting(url: string, timeoutMs: number, exited: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited()) throw new Error("postgres exited before accepting connections");
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
    client.on("error", () => {});
    try {
      await client.connect();
      await client.query("select 1");
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw new Error(`postgres did not accept connections within ${timeoutMs} ms: ${(error as Error).message}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/**
 * A throwaway PostgreSQL (Debian's `postgresql` package, 15 on bookworm) on 127.0.0.1:`port`, for tests, demos and
 * benchmarks: a fresh cluster in a temporary folder (initdb, ~0.5 s), started as a child process in its own process
 * group. fsync is off: nothing here must survive a power cut, and it makes the tests faster.
 */
export async function startPostgresServer(port: number, options: { log?: (line: string) => void } = {}): Promise<RunningPostgres> {
  const bin = findBinDir();
  const user = runAs();
  const base = mkdtempSync(path.join(tmpdir(), "esign-postgres-"));
  if (user) chownSync(base, user.uid, user.gid);
  const dataDir = path.join(base, "data");
  const init = spawnSync(path.join(bin, "initdb"), ["-D", dataDir, "-U", "app", "--auth=trust", "-N", "-E", "UTF8", "--locale=C.UTF-8"], {
    ...user,
    encoding: "utf8",
  });
  if (init.status !== 0) {
    rmSync(base, { recursive: true, force: true });
    throw new Error(`initdb failed (${init.status}): ${init.stderr || init.stdout}`);
  }
  const child = spawn(
    path.join(bin, "postgres"),
    ["-D", dataDir, "-p", String(port), "-k", base, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "max_connections=200"],
    { ...user, detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  const log = options.log ?? (() => {});
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      for (const line of chunk.split("\n")) if (line.trim()) log(`postgres: ${line}`);
    });
  }
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  const url = `postgresql://app@127.0.0.1:${port}/postgres`;
  const running: RunningPostgres = {
    url,
    port,
    dataDir,
    pid: child.pid!,
    freeze: () => signalGroup("SIGSTOP"),
    thaw: () => signalGroup("SIGCONT"),
    async stop() {
      if (!hasExited()) {
        // A frozen server cannot act on a signal until it runs again.
        signalGroup("SIGCONT");
        try {
          process.kill(child.pid!, "SIGINT");
        } catch {
          // already gone
        }
        const timer = setTimeout(() => signalGroup("SIGKILL"), 5_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(base, { recursive: true, force: true });
    },
  };
  try {
    await waitUntilAccepting(url, 15_000, hasExited);
  } catch (error) {
    await running.stop();
    throw error;
  }
  return running;
}
