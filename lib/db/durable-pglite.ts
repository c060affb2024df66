import "server-only";
import { closeSync, constants, fdatasyncSync, fsyncSync, openSync, readdirSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { NodeFS } from "@electric-sql/pglite/nodefs";

/*
 * PGlite 0.5.16 on Node never syncs its folder to disk, whatever PostgreSQL asks (docs/decisions/012-durable-pglite.md):
 * - Emscripten's NODEFS has no `fsync` stream op, so `fsync()` (the WASI `fd_sync` import, which calls
 *   `stream_ops.fsync` when there is one) does nothing;
 * - `fdatasync()` (the `__syscall_fdatasync` import, PostgreSQL's default `wal_sync_method` on Linux) only checks the
 *   descriptor and returns 0;
 * - and `PGlite.defaultStartParams` holds `-F` (fsync off).
 * This file system is PGlite's own NodeFS with both calls sent to the real descriptor each NODEFS stream keeps
 * (`stream.nfd`), so that a commit returns only once its WAL is on disk, and a checkpoint only once the data files and
 * the directories PostgreSQL syncs are. Emscripten's internals are used as 0.5.16 ships them: the package is pinned
 * exactly, and `tests/unit/durable-pglite.test.ts` watches the real syscalls under strace.
 */

/** The Emscripten errno values (WASI numbering) these hooks answer with. */
const EBADF = 8;
const EIO = 29;

type EmscriptenStream = { nfd?: number };
type EmscriptenFs = {
  getStream(fd: number): EmscriptenStream | null;
  quit(): void;
  ErrnoError: new (errno: number) => Error;
};
type Nodefs = {
  stream_ops: Record<string, unknown>;
  tryFSOperation<T>(operation: () => T): T;
};
type EmscriptenModule = { FS: EmscriptenFs; NODEFS: Nodefs };
type WasmImports = { env: Record<string, unknown> };
type InstantiateWasm = (imports: WasmImports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => unknown;
type ModuleOptions = Awaited<ReturnType<NodeFS["init"]>>["emscriptenOpts"];

/** Syncs on the real descriptor; an error reaches PostgreSQL as EIO, which it treats as a failed sync (a PANIC for WAL). */
function syncDescriptor(nfd: number | undefined, dataOnly: boolean): number {
  if (nfd === undefined) return EBADF;
  try {
    (dataOnly ? fdatasyncSync : fsyncSync)(nfd);
    return 0;
  } catch {
    return EIO;
  }
}

/**
 * PGlite's NodeFS (a NODEFS mount of the data folder) whose `fsync()` and `fdatasync()` reach the disk. Give it as
 * `fs` to `PGlite.create`, with start parameters that leave fsync on (no `-F`).
 */
export class DurableNodeFS extends NodeFS {
  private module?: EmscriptenModule;
  private aborted = false;

  constructor(readonly dataDir: string) {
    super(dataDir);
  }

  override async init(pg: PGlite, options: ModuleOptions): Promise<{ emscriptenOpts: ModuleOptions }> {
    const { emscriptenOpts } = await super.init(pg, options);
    const opts = emscriptenOpts as ModuleOptions & { instantiateWasm?: InstantiateWasm; preRun?: Array<(mod: unknown) => void> };
    const instantiate = opts.instantiateWasm;
    // PGlite instantiates its wasm itself; without that hook fdatasync() could not be reached, so say so at once.
    if (!instantiate) throw new Error("PGlite no longer passes instantiateWasm: lib/db/durable-pglite.ts cannot make fdatasync() sync");
    return {
      emscriptenOpts: {
        ...opts,
        // fdatasync() is a wasm import that never reaches the file system: replaced before the instance binds it.
        instantiateWasm: ((imports, done) => {
          imports.env.__syscall_fdatasync = (fd: number) => {
            if (this.aborted) return -EIO;
            const stream = this.module?.FS.getStream(fd);
            if (!stream) return -EBADF;
            // Streams of other mounts (memory, devices) have nothing to sync.
            return stream.nfd === undefined ? 0 : -syncDescriptor(stream.nfd, true);
          };
          return instantiate(imports, done);
        }) satisfies InstantiateWasm,
        preRun: [
          ...(opts.preRun ?? []),
          (mod: unknown) => {
            const emscripten = mod as EmscriptenModule;
            this.module = emscripten;
            // fsync() calls stream_ops.fsync when the stream's file system has one; every NODEFS stream (files and
            // directories alike: NODEFS opens both) shares this object, so PostgreSQL's directory syncs land here too.
            emscripten.NODEFS.stream_ops.fsync = (stream: EmscriptenStream) => (this.aborted ? EIO : syncDescriptor(stream.nfd, false));
            // Every NODEFS operation goes through this: once aborted, nothing more reaches the folder.
            const attempt = emscripten.NODEFS.tryFSOperation.bind(emscripten.NODEFS);
            emscripten.NODEFS.tryFSOperation = <T>(operation: () => T): T => {
              if (this.aborted) throw new emscripten.FS.ErrnoError(EIO);
              return attempt(operation);
            };
          },
        ],
      } as ModuleOptions,
    };
  }

  /**
   * Stops this instance from touching the folder at once, without PostgreSQL's shutdown (no shutdown checkpoint, no
   * control file update): for a process that lost the folder to another. Closes the real descriptors; from then on
   * every file operation of the instance fails with EIO, so a query still under way errs instead of writing. The
   * instance is unusable afterwards: drop it (its memory goes with it; `close()` must not be called).
   */
  abort(): void {
    if (this.aborted || !this.module) return;
    // FS.quit closes every open stream (the real descriptors) through NODEFS; only then is NODEFS closed off.
    this.module.FS.quit();
    this.aborted = true;
  }
}

/** fsyncs one file or folder (a folder's entries, e.g. a rename in it, are on disk once it is synced). */
export function syncPath(target: string): void {
  const fd = openSync(target, constants.O_RDONLY);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * fsyncs every file and folder under `dir`, and `dir`'s own parent: what initdb does before it reports a new
 * cluster. A folder just made by PGlite's initdb is otherwise only in the page cache (strace saw no other sync of
 * it); one loaded from the build's seed was also synced by PostgreSQL's start-up, and this is a second pass there.
 */
export function syncFolderTree(dir: string): void {
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const target = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(target);
      else if (entry.isFile()) syncPath(target);
    }
    syncPath(folder);
  };
  walk(dir);
  syncPath(path.dirname(dir));
}
