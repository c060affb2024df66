import { createServer, type Server } from "node:http";
import { once } from "node:events";

/** A stand-in for the app's back-channel logout route: records each logout_token and answers `status`. */
export class LogoutReceiver {
  readonly received: string[] = [];
  status = 200;
  private readonly server: Server;

  constructor(readonly port: number) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const token = new URLSearchParams(Buffer.concat(chunks).toString()).get("logout_token");
        if (token) this.received.push(token);
        res.writeHead(this.status, { "cache-control": "no-store" }).end();
      });
    });
  }

  get uri(): string {
    return `http://localhost:${this.port}/api/auth/backchannel-logout`;
  }

  async start(): Promise<void> {
    this.server.listen(this.port, "127.0.0.1");
    await once(this.server, "listening");
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
