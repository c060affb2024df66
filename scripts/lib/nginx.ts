import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { findSystemBinary } from "./system-binary";
import { startProcess, waitForPort, type RunningProcess } from "./child-process";

export type RunningNginx = RunningProcess & { readonly dir: string };

/**
 * Runs Debian's nginx in the foreground as an ordinary child process, with its pid file, temp paths and
 * logs in a private directory, so it needs neither root nor systemd. `httpBlock` is the inside of the
 * `http { }` block (upstreams, servers); `listenPort` is awaited before this resolves. The directory is
 * removed when nginx is stopped.
 */
export async function startNginx(httpBlock: string, listenPort: number, log?: (line: string) => void): Promise<RunningNginx> {
  const binary = findSystemBinary("nginx", "nginx");
  const dir = mkdtempSync(path.join(tmpdir(), "esign-nginx-"));
  // Started as root, nginx's workers drop to `nobody`: they must reach the temp paths (writable, not listable).
  chmodSync(dir, 0o755);
  for (const sub of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) {
    mkdirSync(path.join(dir, sub));
    chmodSync(path.join(dir, sub), 0o733);
  }
  const config = `worker_processes 1;
pid ${dir}/nginx.pid;
error_log stderr warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${httpBlock}
}
`;
  writeFileSync(path.join(dir, "nginx.conf"), config);
  const running = startProcess("nginx", binary, ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-g", "daemon off;"], { log });
  await waitForPort(listenPort, 10_000, running.child);
  return {
    ...running,
    dir,
    async stop(graceMs?: number) {
      await running.stop(graceMs);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
