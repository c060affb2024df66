import { Agent, request } from "node:https";

export type LoadResult = {
  requests: number;
  failures: number;
  statuses: Record<string, number>;
  latenciesMs: number[];
  elapsedMs: number;
};

/**
 * Closed-loop load over TLS: each session sends its next GET as soon as the previous answer arrives, over
 * its own keep-alive connection, until `stop()` resolves or `maxRequests` is reached. Connects to loopback
 * and presents `host` (SNI and Host) — the self-signed certificate is not checked. Anything but 200 fails.
 */
export async function runClosedLoop(options: {
  port: number;
  host: string;
  path: string;
  cookies: string[];
  until: Promise<void>;
  maxRequests: number;
}): Promise<LoadResult> {
  const statuses: Record<string, number> = {};
  const latenciesMs: number[] = [];
  let failures = 0;
  let done = false;
  void options.until.then(() => (done = true));
  const started = performance.now();

  const one = (agent: Agent, cookie: string) =>
    new Promise<string>((resolve) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: options.port,
          path: options.path,
          agent,
          servername: options.host,
          rejectUnauthorized: false,
          headers: { host: `${options.host}:${options.port}`, cookie },
        },
        (res) => {
          res.resume();
          res.once("end", () => resolve(String(res.statusCode)));
          res.once("error", (e: NodeJS.ErrnoException) => resolve(`response error ${e.code ?? e.message}`));
        },
      );
      req.once("error", (e: NodeJS.ErrnoException) => resolve(`network error ${e.code ?? e.message}`));
      req.end();
    });

  await Promise.all(
    options.cookies.map(async (cookie) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      while (!done && latenciesMs.length < options.maxRequests) {
        const sent = performance.now();
        const outcome = await one(agent, cookie);
        latenciesMs.push(performance.now() - sent);
        statuses[outcome] = (statuses[outcome] ?? 0) + 1;
        if (outcome !== "200") failures += 1;
      }
      agent.destroy();
    }),
  );
  return { requests: latenciesMs.length, failures, statuses, latenciesMs, elapsedMs: performance.now() - started };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
