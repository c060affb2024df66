import { createMd5Streamer, type Md5Streamer } from "@/lib/upload/md5";
import type { Md5WorkerReply } from "@/lib/upload/hash-in-worker";

// Entry of the MD5 Web Worker: hashes each posted File or block off the main thread, reporting progress.
// Messages are handled one after another with one streamer (one wasm hasher, one read buffer): a block
// upload posts a block at a time, and fresh ones per block grew the page's memory with the file's size.
let streamer: Promise<Md5Streamer> | null = null;
let queue: Promise<void> = Promise.resolve();

self.onmessage = (event: MessageEvent<{ file: Blob }>) => {
  const reply = (message: Md5WorkerReply) => self.postMessage(message);
  queue = queue.then(async () => {
    try {
      streamer ??= createMd5Streamer();
      const md5 = await (await streamer)(event.data.file, (hashed) => reply({ type: "progress", hashed }));
      reply({ type: "done", md5 });
    } catch (error) {
      reply({ type: "error", message: error instanceof Error ? error.message : String(error) });
    }
  });
};
