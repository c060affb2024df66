import { createServer, type Server } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { startProcess, waitForOwnServer } from "../../scripts/lib/child-process";

/** A leader that exits at once on SIGTERM, and the process it forked, which takes 500 ms to go. */
const LEADER = `
const child = require("node:child_process").spawn(process.execPath, ["-e", "process.on('SIGTERM', () => setTimeout(() => process.exit(0), 500)); setInterval(() => {}, 1000)"], { stdio: "inherit" });
console.log("forked " + child.pid);
process.on("SIGTERM", () => process.exit(0));
setInterval(() => {}, 1000);
`;

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("a started process", () => {
  const servers: Server[] = [];
  afterAll(() => servers.forEach((server) => server.close()));

  it("is stopped only once every process of its group has exited, not just its leader", async () => {
    const lines: string[] = [];
    const running = startProcess("leader", process.execPath, ["-e", LEADER], { log: (line) => lines.push(line) });
    await running.printed(/^forked \d+$/);
    const forked = Number(/forked (\d+)/.exec(lines.join("\n"))![1]);
    expect(isAlive(forked)).toBe(true);
    await running.stop(5_000);
    expect(isAlive(forked)).toBe(false);
  });

  it("is not taken for ready when a stranger answers its URL: it never printed its ready line and exited", async () => {
    const stranger = createServer((_req, res) => res.end("someone else"));
    servers.push(stranger);
    const port = await new Promise<number>((resolve) => stranger.listen(0, "127.0.0.1", () => resolve((stranger.address() as { port: number }).port)));
    const running = startProcess("late", process.execPath, ["-e", "setTimeout(() => { console.error('EADDRINUSE'); process.exit(1); }, 300)"]);
    await expect(waitForOwnServer(running, `http://127.0.0.1:${port}/`, /Ready in /, 10_000)).rejects.toThrow(/exited/);
  });

  it("is ready once it printed its ready line and its URL answers", async () => {
    const probe = createServer();
    const port = await new Promise<number>((resolve) => probe.listen(0, "127.0.0.1", () => resolve((probe.address() as { port: number }).port)));
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const script = `require("node:http").createServer((_q, r) => r.end("ok")).listen(${port}, "127.0.0.1", () => console.log("Ready in 1ms"));`;
    const running = startProcess("own", process.execPath, ["-e", script]);
    await expect(waitForOwnServer(running, `http://127.0.0.1:${port}/`, /Ready in /, 10_000)).resolves.toBeUndefined();
    await running.stop();
  });
});
