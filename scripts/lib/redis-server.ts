import { findSystemBinary } from "./system-binary";
import { startProcess, waitForPort, type RunningProcess } from "./child-process";

export type RunningRedis = RunningProcess & { readonly url: string; readonly port: number };

/**
 * A throwaway `redis-server` (Debian package) on loopback: no persistence, so a restart starts empty —
 * the same state a real Redis is in after a crash without AOF: every session it held is gone.
 */
export async function startRedisServer(port: number, log?: (line: string) => void): Promise<RunningRedis> {
  const binary = findSystemBinary("redis-server", "redis-server");
  const running = startProcess("redis", binary, ["--bind", "127.0.0.1", "--port", String(port), "--save", "", "--appendonly", "no", "--protected-mode", "yes"], { log });
  await waitForPort(port, 10_000, running.child);
  return { ...running, url: `redis://127.0.0.1:${port}`, port };
}
