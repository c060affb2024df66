import { createServer, type Server } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { assertPortFree } from "../../scripts/lib/child-process";

describe("assertPortFree", () => {
  const servers: Server[] = [];
  afterAll(() => servers.forEach((server) => server.close()));
  const listen = () =>
    new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port));
      servers.push(server);
    });

  it("refuses a port something already listens on, naming it", async () => {
    const port = await listen();
    await expect(assertPortFree(port)).rejects.toThrow(`port ${port} on 127.0.0.1 is already taken`);
  });

  it("lets a free port through", async () => {
    const port = await listen();
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
    await expect(assertPortFree(port)).resolves.toBeUndefined();
  });
});
