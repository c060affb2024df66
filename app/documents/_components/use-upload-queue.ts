"use client";
import { useRef, useState, useSyncExternalStore } from "react";
import type { UploadedDocument } from "@/lib/upload/upload-document";
import type { BlockSettings } from "@/lib/upload/resume-point";
import type { SavedUpload } from "@/lib/upload/saved-upload";
import type { QueueItem, UploadQueue } from "@/lib/upload/upload-queue";

type Machinery = typeof import("@/app/documents/_components/create-upload-queue");
type Loaded = { queue: UploadQueue; machinery: Machinery };
type Entries = Parameters<UploadQueue["enqueue"]>[0];

const NO_ITEMS: readonly QueueItem[] = [];
const noItems = () => NO_ITEMS;
const subscribeToNothing = () => () => {};

/**
 * The upload queue, loaded on demand: `prepare()` (called when a file is chosen) starts loading the upload
 * machinery, `enqueue()` waits for it. Until then the page has no queue and shows no uploads. A failed load
 * (e.g. offline) is reported and the next `prepare()` tries again.
 */
export function useUploadQueue(options: {
  allowedOrigins: readonly string[];
  uploadBlocks: BlockSettings;
  userKey: string;
  onUploaded: (doc: UploadedDocument) => void;
}) {
  const [queue, setQueue] = useState<UploadQueue | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const loading = useRef<Promise<Loaded> | null>(null);

  const prepare = (): Promise<Loaded> => {
    loading.current ??= import("@/app/documents/_components/create-upload-queue").then(
      (machinery) => {
        const created = machinery.createUploadQueue(options);
        setQueue(created);
        setLoadFailed(false);
        return { queue: created, machinery };
      },
      (error: unknown) => {
        loading.current = null;
        setLoadFailed(true);
        throw error;
      },
    );
    return loading.current;
  };

  const items = useSyncExternalStore(queue?.subscribe ?? subscribeToNothing, queue?.getSnapshot ?? noItems, noItems);

  return {
    items,
    loadFailed,
    prepare: () => void prepare().catch(() => {}),
    enqueue: (entries: Entries) => void prepare().then(({ queue: q }) => q.enqueue(entries), () => {}),
    /** Checks a re-picked file against an interrupted upload; false also when the machinery cannot load. */
    isSavedFile: (file: File, saved: SavedUpload) =>
      prepare().then(({ machinery }) => machinery.isSavedFile(file, saved), () => false),
    cancel: (id: string) => queue?.cancel(id),
    retry: (id: string) => queue?.retry(id),
    dismiss: (id: string) => queue?.dismiss(id),
    pause: (id: string) => queue?.pause(id),
    resume: (id: string) => queue?.resume(id),
  };
}
