import { Agent, request } from "node:http";
import type { PhaseResult } from "./stats";

export interface LoadOptions {
  /** Loopback URL every session requests. */
  url: string;
  /** One entry per concurrent session: the headers that session sends (its cookie or bearer token). */
  sessions: Record<string, string>[];
  durationMs: number;
  /** Hard cap on requests, so a run stays bounded even against an unexpectedly fast target. */
  maxRequests: number;
}

// One GET over a session's own keep-alive connection; resolves with the status (0 for a network failure).
function get(url: URL, agent: Agent, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, { agent, headers }, (res) => {
      res.resume();
      res.once("end", () => resolve(res.statusCode ?? 0));
      res.once("error", () => resolve(0));
    });
    req.once("error", () => resolve(0));
    req.end();
  });
}

/**
 * Closed-loop load: each session sends its next request as soon as the previous answer arrives, over its own
 * keep-alive connection (like N browsers), until the time or the request cap runs out. Anything but 200 is an error.
 */
export async function runLoad({ url, sessions, durationMs, maxRequests }: LoadOptions): Promise<PhaseResult> {
  const target = new URL(url);
  const latenciesMs: number[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  const agents = sessions.map(() => new Agent({ keepAlive: true, maxSockets: 1 }));

  const session = async (headers: Record<string, string>, agent: Agent) => {
    while (performance.now() < deadline && latenciesMs.length < maxRequests) {
      const sent = performance.now();
      const status = await get(target, agent, headers);
      latenciesMs.push(performance.now() - sent);
      if (status !== 200) errors += 1;
    }
  };
  await Promise.all(sessions.map((headers, i) => session(headers, agents[i] as Agent)));
  const elapsedMs = performance.now() - started;
  for (const agent of agents) agent.destroy();
  return { requests: latenciesMs.length, errors, elapsedMs, latenciesMs };
}
