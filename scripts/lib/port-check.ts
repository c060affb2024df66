import { createServer } from "node:net";

export type PortUse = {
  port: number;
  /** Where the server will listen: 127.0.0.1, or undefined for every interface (as `next dev` does). */
  host: string | undefined;
  /** Who needs the port, in words, and the variable that moves it. */
  what: string;
  variable: string;
};

/** Whether a server could listen on `port` at `host` now: the same bind the real server will attempt. */
function isFree({ port, host }: PortUse): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen({ port, host }, () => probe.close(() => resolve(true)));
  });
}

/** The first of `uses` whose port is taken, or undefined when all are free. */
export async function findTakenPort(uses: PortUse[]): Promise<PortUse | undefined> {
  for (const use of uses) if (!(await isFree(use))) return use;
  return undefined;
}

/** What to print when a port is taken: which port, who needed it, and the two ways out. */
export function portTakenMessage(use: PortUse, command: string): string {
  return [
    `port ${use.port} (${use.what}) is already in use.`,
    `  Stop whatever listens there — \`ss -ltnp 'sport = :${use.port}'\` names it —`,
    `  or move it: ${use.variable}=<free port> ${command}`,
  ].join("\n");
}
