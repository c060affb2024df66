import { hashBlockMd5 } from "@/lib/upload/put-block";
import type { SavedUpload } from "@/lib/upload/saved-upload";
import type { ResumeSaver } from "@/lib/upload/upload-queue";

type Store = { save: (saved: SavedUpload) => Promise<unknown>; remove: (id: string) => Promise<unknown> };

/**
 * Keeps the queue's resume points in `store` (IndexedDB) for one user. Writes for one upload run one after
 * another, so a removal after the last block can never be overtaken by an earlier save. A failed write
 * only costs the resume-after-reload, never the upload itself.
 */
export function createResumeSaver(userKey: string, store: Store, hashBlock = hashBlockMd5): ResumeSaver {
  const chains = new Map<string, Promise<unknown>>();
  const firstBlockMd5 = new Map<string, Promise<string>>();
  const enqueue = (id: string, write: () => Promise<unknown>) => {
    const next = (chains.get(id) ?? Promise.resolve()).then(write).catch(() => undefined);
    chains.set(id, next);
  };
  return {
    save(item, point) {
      if (!firstBlockMd5.has(item.id)) firstBlockMd5.set(item.id, hashBlock(item.file.slice(0, point.blockSize)));
      const md5 = firstBlockMd5.get(item.id)!;
      enqueue(item.id, async () =>
        store.save({
          id: item.id,
          userKey,
          fileName: item.file.name,
          size: item.file.size,
          lastModified: item.file.lastModified,
          blockSize: point.blockSize,
          firstBlockMd5: await md5,
          input: item.input,
          itemId: point.created.itemId,
          point,
        }),
      );
    },
    remove(id) {
      firstBlockMd5.delete(id);
      enqueue(id, () => store.remove(id));
    },
  };
}
