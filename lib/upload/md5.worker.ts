import { hashFileMd5 } from "@/lib/upload/md5";
import type { Md5WorkerReply } from "@/lib/upload/hash-in-worker";

// Entry of the MD5 Web Worker: hashes the posted File off the main thread and reports progress per slice.
self.onmessage = async (event: MessageEvent<{ file: Blob }>) => {
  const reply = (message: Md5WorkerReply) => self.postMessage(message);
  try {
    const md5 = await hashFileMd5(event.data.file, (hashed) => reply({ type: "progress", hashed }));
    reply({ type: "done", md5 });
  } catch (error) {
    reply({ type: "error", message: error instanceof Error ? error.message : String(error) });
  }
};
