import "server-only";
import { connect as connectTcp, type Socket } from "node:net";
import { connect as connectTls } from "node:tls";

/** One RESP command as Redis expects it on the wire. */
const command = (...parts: string[]) => `*${parts.length}\r\n${parts.map((p) => `$${Buffer.byteLength(p)}\r\n${p}\r\n`).join("")}`;

/**
 * Sends PING (after AUTH when the URL carries credentials) to the Redis at `redisUrl` and resolves when it
 * answers PONG. Dependency-free on purpose: readiness must not depend on the app's own Redis client being
 * healthy, and this branch has none. Errors never include the URL, which may hold a password.
 */
export function pingRedis(redisUrl: string, signal: AbortSignal): Promise<void> {
  const url = new URL(redisUrl);
  const port = Number(url.port || 6379);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return new Promise((resolve, reject) => {
    const socket: Socket = url.protocol === "rediss:" ? connectTls({ host, port, servername: host }) : connectTcp({ host, port });
    const finish = (error?: Error) => {
      socket.destroy();
      signal.removeEventListener("abort", onAbort);
      if (error) reject(error);
      else resolve();
    };
    const onAbort = () => finish(new Error("no answer in time"));
    signal.addEventListener("abort", onAbort);
    socket.once("error", (error: NodeJS.ErrnoException) => finish(new Error(`unreachable (${error.code ?? "error"})`)));
    socket.once(url.protocol === "rediss:" ? "secureConnect" : "connect", () => {
      const password = decodeURIComponent(url.password);
      const username = decodeURIComponent(url.username);
      const auth = password ? (username ? command("AUTH", username, password) : command("AUTH", password)) : "";
      socket.write(auth + command("PING"));
    });
    let received = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      received += chunk;
      if (received.startsWith("-")) finish(new Error(`refused: ${received.split("\r\n")[0]!.slice(1, 80)}`));
      else if (received.includes("+PONG")) finish();
    });
  });
}
