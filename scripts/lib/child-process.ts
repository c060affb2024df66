import { spawn, type ChildProcess } from "node:child_process";
import { connect } from "node:net";

export type RunningProcess = {
  readonly child: ChildProcess;
  /**
   * Sends SIGTERM to its process group and resolves once every process of the group has exited: SIGKILL after
   * `graceMs`. A forked server outliving its parent would still hold the port and folders the next start needs.
   */
  stop(graceMs?: number): Promise<void>;
  /** Resolves once a line it prints from now on matches `pattern`; rejects if it exits first. Call it right after starting. */
  printed(pattern: RegExp): Promise<void>;
};

/** Starts a long-running child in its own process group, so stopping it also stops anything it forked. */
export function startProcess(name: string, command: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; log?: (line: string) => void } = {}): RunningProcess {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const log = options.log ?? (() => {});
  const watchers = new Set<(line: string) => void>();
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding("utf8");
    stream?.on("data", (chunk: string) => {
      for (const line of chunk.split("\n")) {
        if (!line.trim()) continue;
        log(`${name}: ${line}`);
        for (const watch of watchers) watch(line);
      }
    });
  }
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    child,
    async stop(graceMs = 5_000) {
      // The group even when its leader is gone: what it forked may still run.
      signalGroup(child, "SIGTERM");
      const timer = setTimeout(() => signalGroup(child, "SIGKILL"), graceMs);
      await exited;
      await groupGone(child, graceMs + GROUP_EXIT_AFTER_KILL_MS);
      clearTimeout(timer);
    },
    printed(pattern) {
      return new Promise<void>((resolve, reject) => {
        const watch = (line: string) => {
          if (!pattern.test(line)) return;
          watchers.delete(watch);
          resolve();
        };
        watchers.add(watch);
        exited.then(() => {
          if (!watchers.delete(watch)) return;
          reject(new Error(`${name} exited with ${child.signalCode ?? child.exitCode} before it printed ${pattern}`));
        });
      });
    },
  };
}

/** How long a group may take to go once SIGKILLed (a process the kernel is still tearing down). */
const GROUP_EXIT_AFTER_KILL_MS = 2_000;

/**
 * Resolves once no process of `child`'s group is left, or after `timeoutMs` (an orphan nobody reaps stays a zombie,
 * which signals still reach: it holds no port or file any more).
 */
async function groupGone(child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (child.pid && Date.now() < deadline) {
    try {
      process.kill(-child.pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
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
    if (child && (child.exitCode !== null || child.signalCode !== null)) throw new Error(`the process behind ${url} exited with ${child.signalCode ?? child.exitCode}`);
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

/**
 * Resolves once `server` itself is up: its own output says it listens (`readyLine`) and `url` answers. The answer
 * alone may come from a stranger on the port (a server left from an earlier run, still draining); only the child
 * prints its own ready line, and a child that could not listen exits instead. Rejects when it exits or after `timeoutMs`.
 */
export async function waitForOwnServer(server: RunningProcess, url: string, readyLine: RegExp, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${url} did not say it was ready within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    await Promise.race([Promise.all([server.printed(readyLine), waitForHttp(url, timeoutMs, server.child)]), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
