import { hashBlockMd5 } from "@/lib/upload/put-block";
import type { SavedUpload } from "@/lib/upload/saved-upload";
import type { ResumeSaver } from "@/lib/upload/upload-queue";

type Store = { save: (saved: SavedUpload) => Promise<unknown>; remove: (id: string) => Promise<unknown> };

/**
 * Keeps the queue's resume points in `store` (IndexedDB) for one user. Writes for one upload run one after
 * another, so a removal after the last block can never be overtaken by an earlier save. A removal also drops the
 * saves still waiting for the first block's MD5 (a save needs it, a removal does not): the point of an upload that
 * just finished is gone as soon as IndexedDB answers, not once the hash is done, so a user who leaves right after the
 * upload finds no "interrupted upload" for it. A failed write only costs the resume-after-reload, never the upload
 * itself.
 */
export function createResumeSaver(userKey: string, store: Store, hashBlock = hashBlockMd5): ResumeSaver {
  const chains = new Map<string, Promise<unknown>>();
  // Per upload, from its first save to its removal.
  const uploads = new Map<string, Upload>();
  const enqueue = (id: string, write: () => Promise<unknown>) => {
    const next = (chains.get(id) ?? Promise.resolve()).then(write).catch(() => undefined);
    chains.set(id, next);
  };
  return {
    save(item, point) {
      let upload = uploads.get(item.id);
      if (!upload) {
        upload = startUpload(hashBlock(item.file.slice(0, point.blockSize)));
        uploads.set(item.id, upload);
      }
      const { firstBlockMd5, removal } = upload;
      enqueue(item.id, async () => {
        const hash = await Promise.race([firstBlockMd5, removal.settled]);
        if (removal.done) return;
        await store.save({
          id: item.id,
          userKey,
          fileName: item.file.name,
          size: item.file.size,
          lastModified: item.file.lastModified,
          blockSize: point.blockSize,
          firstBlockMd5: hash as string,
          input: item.input,
          itemId: point.created.itemId,
          point,
        });
      });
    },
    remove(id) {
      uploads.get(id)?.removal.happen();
      uploads.delete(id);
      enqueue(id, () => store.remove(id));
    },
  };
}

/** The first block's MD5 (hashed once), and the removal that settles the saves queued before it (one listener each). */
type Upload = { firstBlockMd5: Promise<string>; removal: { settled: Promise<void>; done: boolean; happen: () => void } };

function startUpload(firstBlockMd5: Promise<string>): Upload {
  let settle: () => void = () => {};
  const removal: Upload["removal"] = {
    settled: new Promise<void>((resolve) => (settle = resolve)),
    done: false,
    happen: () => {
      removal.done = true;
      settle();
    },
  };
  return { firstBlockMd5, removal };
}
