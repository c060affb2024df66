import "server-only";
import { rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { BackupError, type BackupErrorCode } from "@/lib/backup/backup-error";

/**
 * `npm run backup` asks the running instance over a Unix socket in the data folder: only the process holding the
 * folder may read it, and the folder's permissions decide who may ask (whoever can read the database's files may
 * ask for a copy of them). One JSON line each way. Node cuts socket paths past 107 bytes silently, so a longer one is
 * refused by name instead.
 */
export const CONTROL_SOCKET_NAME = "backup.sock";
const MAX_SOCKET_PATH = 107;

export type ControlAnswer<T> = { ok: true; result: T } | { ok: false; error: { code: BackupErrorCode | "INTERNAL"; message: string } };

export function controlSocketPath(dataDir: string): string {
  return path.join(dataDir, CONTROL_SOCKET_NAME);
}

function assertSocketPathFits(socket: string): void {
  if (Buffer.byteLength(socket) > MAX_SOCKET_PATH) {
    throw new BackupError("NOT_CONFIGURED", `The backup control socket ${socket} is longer than ${MAX_SOCKET_PATH} bytes, which Unix sockets cannot hold: use a shorter DATABASE_DIR.`);
  }
}

/**
 * Listens on the data folder's control socket for `{"command":"backup"}` and answers with `handle`'s result. The
 * caller holds the folder's lock, so a socket file left by a crashed holder is stale and replaced.
 */
export function listenForControl<T>(dataDir: string, handle: (command: string) => Promise<T>): Promise<net.Server> {
  const socket = controlSocketPath(dataDir);
  assertSocketPathFits(socket);
  rmSync(socket, { force: true });
  const server = net.createServer((connection) => {
    let received = "";
    connection.setEncoding("utf8");
    connection.on("error", () => {});
    connection.on("data", (chunk: string) => {
      received += chunk;
      if (!received.includes("\n")) {
        if (received.length > 1024) connection.destroy();
        return;
      }
      let command = "";
      try {
        command = String((JSON.parse(received.slice(0, received.indexOf("\n"))) as { command?: unknown }).command ?? "");
      } catch {
        // Answered as an unknown command below.
      }
      handle(command).then(
        (result): ControlAnswer<T> => ({ ok: true, result }),
        (error: unknown): ControlAnswer<T> => ({
          ok: false,
          error: error instanceof BackupError ? { code: error.code, message: error.message } : { code: "INTERNAL", message: "The backup failed; the instance's log says why." },
        }),
      ).then((answer) => connection.end(`${JSON.stringify(answer)}\n`));
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(socket, () => {
      server.off("error", reject);
      resolve(server);
    });
  });
}

/**
 * Sends `command` to the instance holding `dataDir`; answers undefined when none listens (no socket file, or a stale
 * one nobody accepts on).
 */
export function askRunningInstance<T>(dataDir: string, command: string): Promise<ControlAnswer<T> | undefined> {
  const socket = controlSocketPath(dataDir);
  assertSocketPathFits(socket);
  return new Promise((resolve, reject) => {
    let received = "";
    const connection = net.createConnection(socket);
    connection.setEncoding("utf8");
    connection.on("connect", () => connection.write(`${JSON.stringify({ command })}\n`));
    connection.on("data", (chunk: string) => (received += chunk));
    connection.on("end", () => {
      try {
        resolve(JSON.parse(received) as ControlAnswer<T>);
      } catch {
        reject(new Error("the running instance closed the control socket without an answer"));
      }
    });
    connection.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT" || error.code === "ECONNREFUSED") resolve(undefined);
      else reject(error);
    });
  });
}
