import { createMD5, type IHasher } from "hash-wasm";
import { hashFileMd5 } from "@/lib/upload/md5";
import type { Md5WorkerReply } from "@/lib/upload/hash-in-worker";

// Entry of the MD5 Web Worker: hashes each posted File or block off the main thread, reporting progress.
// Messages are handled one after another with one wasm hasher: a block upload posts a block at a time and a
// fresh instance per block grew the page's memory with the number of blocks until GC caught up.
let hasher: Promise<IHasher> | null = null;
let queue: Promise<void> = Promise.resolve();

self.onmessage = (event: MessageEvent<{ file: Blob }>) => {
  const reply = (message: Md5WorkerReply) => self.postMessage(message);
  queue = queue.then(async () => {
    try {
      hasher ??= createMD5();
      const md5 = await hashFileMd5(event.data.file, (hashed) => reply({ type: "progress", hashed }), await hasher);
      reply({ type: "done", md5 });
    } catch (error) {
      reply({ type: "error", message: error instanceof Error ? error.message : String(error) });
    }
  });
};
