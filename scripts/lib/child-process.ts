import { spawn, type ChildProcess } from "node:child_process";
import { connect } from "node:net";

export type RunningProcess = {
  readonly child: ChildProcess;
  /** Sends SIGTERM and waits for the exit; SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
};

/** Starts a long-running child in its own process group, so stopping it also stops anything it forked. */
export function startProcess(name: string, command: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; log?: (line: string) => void } = {}): RunningProcess {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const log = options.log ?? (() => {});
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding("utf8");
    stream?.on("data", (chunk: string) => {
      for (const line of chunk.split("\n")) if (line.trim()) log(`${name}: ${line}`);
    });
  }
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    child,
    async stop(graceMs = 5_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      signalGroup(child, "SIGTERM");
      const timer = setTimeout(() => signalGroup(child, "SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (!child.pid) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** Whether something accepts a TCP connection on 127.0.0.1:port right now. */
function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/**
 * Rejects when something already accepts connections on 127.0.0.1:port. A server started there could not listen, and
 * a readiness check would be answered by the stranger: a process left over from an earlier, interrupted run once
 * answered every request for one of two instances with 401, which looked like a session bug.
 */
export async function assertPortFree(port: number): Promise<void> {
  if (await acceptsConnections(port)) throw new Error(`port ${port} on 127.0.0.1 is already taken by another process (one left from an earlier run?): stop it, or choose another port`);
}

/** Resolves once something accepts TCP connections on 127.0.0.1:port; rejects after `timeoutMs`. */
export async function waitForPort(port: number, timeoutMs: number, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`the process for port ${port} exited with ${child.exitCode} before listening`);
    if (await acceptsConnections(port)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listened on 127.0.0.1:${port} within ${timeoutMs} ms`);
}

/**
 * Resolves once `url` answers with a status `ready` accepts (by default any below 500: the server is up);
 * rejects when `child` exits first or after `timeoutMs`.
 */
export async function waitForHttp(
  url: string,
  timeoutMs: number,
  child?: ChildProcess,
  ready: (status: number) => boolean = (status) => status < 500,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`the process behind ${url} exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      await res.body?.cancel();
      if (ready(res.status)) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}
