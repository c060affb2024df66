import { fileURLToPath } from "node:url";
import { parentPort, Worker } from "node:worker_threads";

/** Functions a worker module offers to the bench's main thread; each takes one structured-clonable argument. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each handler narrows its own argument
export type WorkerHandlers = Record<string, (arg: any) => Promise<unknown>>;

type Call = { id: number; name: string; arg: unknown };
type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

/** Answers the main thread's calls with `handlers`; the worker module's last statement. */
export function serveCalls(handlers: WorkerHandlers): void {
  const port = parentPort;
  if (!port) throw new Error("serveCalls runs in a worker thread");
  port.on("message", ({ id, name, arg }: Call) => {
    const handler = handlers[name];
    const reply = (r: Reply) => port.postMessage(r);
    if (!handler) return reply({ id, ok: false, error: `no handler ${name}` });
    handler(arg).then(
      (value) => reply({ id, ok: true, value }),
      (error: unknown) => reply({ id, ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    );
  });
}

export type AppWorker<H extends WorkerHandlers> = {
  call<K extends keyof H & string>(name: K, arg: Parameters<H[K]>[0]): Promise<Awaited<ReturnType<H[K]>>>;
  stop(): Promise<void>;
};

/**
 * Runs `file` (TypeScript) in a worker thread with the server build's `react-server` condition, so it can load
 * the app's server-only modules. A worker has its own globalThis and module instances: its own config, session
 * store connection and in-flight refresh map, i.e. one app instance. `env` replaces process.env there.
 */
export function startAppWorker<H extends WorkerHandlers>(file: URL, env: Record<string, string | undefined>): AppWorker<H> {
  // tsx's loader registered by `tsx` in the main thread does not reach workers on Node 20: register it there.
  const boot = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(file.href)}); })`;
  const worker = new Worker(boot, { eval: true, env, execArgv: ["--conditions=react-server"] });
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let next = 0;
  let failure: Error | undefined;
  const failAll = (error: Error) => {
    failure = error;
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  worker.on("message", (reply: Reply) => {
    const p = pending.get(reply.id);
    pending.delete(reply.id);
    if (reply.ok) p?.resolve(reply.value);
    else p?.reject(new Error(`${fileURLToPath(file)}: ${reply.error}`));
  });
  worker.on("error", failAll);
  worker.on("exit", (code) => failAll(new Error(`worker ${fileURLToPath(file)} exited with ${code}`)));
  return {
    call(name, arg) {
      if (failure) return Promise.reject(failure);
      const id = next++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        worker.postMessage({ id, name, arg } satisfies Call);
      });
    },
    async stop() {
      await worker.terminate();
    },
  };
}
