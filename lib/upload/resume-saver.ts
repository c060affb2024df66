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
  const firstBlockMd5 = new Map<string, Promise<string>>();
  // Per upload (one listener, not one per save): settled by its removal, so the saves queued before it write nothing.
  const removals = new Map<string, Removal>();
  const enqueue = (id: string, write: () => Promise<unknown>) => {
    const next = (chains.get(id) ?? Promise.resolve()).then(write).catch(() => undefined);
    chains.set(id, next);
  };
  return {
    save(item, point) {
      if (!firstBlockMd5.has(item.id)) firstBlockMd5.set(item.id, hashBlock(item.file.slice(0, point.blockSize)));
      if (!removals.has(item.id)) removals.set(item.id, createRemoval());
      const md5 = firstBlockMd5.get(item.id)!;
      const removal = removals.get(item.id)!;
      enqueue(item.id, async () => {
        const hash = await Promise.race([md5, removal.removed]);
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
      firstBlockMd5.delete(id);
      removals.get(id)?.remove();
      removals.delete(id);
      enqueue(id, () => store.remove(id));
    },
  };
}

type Removal = { removed: Promise<void>; done: boolean; remove: () => void };

function createRemoval(): Removal {
  let resolve: () => void = () => {};
  const state: Removal = {
    removed: new Promise<void>((settle) => (resolve = settle)),
    done: false,
    remove: () => {
      state.done = true;
      resolve();
    },
  };
  return state;
}
