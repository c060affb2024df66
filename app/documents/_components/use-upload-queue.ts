"use client";
import { useRef, useState, useSyncExternalStore } from "react";
import type { CreateDocumentInput } from "@/lib/esign/schemas";
import type { UploadedDocument } from "@/lib/upload/upload-document";
import type { QueueItem, UploadQueue } from "@/lib/upload/upload-queue";

const NO_ITEMS: readonly QueueItem[] = [];
const noItems = () => NO_ITEMS;
const subscribeToNothing = () => () => {};

/**
 * The upload queue, loaded on demand: `prepare()` (called when a file is chosen) starts loading the upload
 * machinery, `enqueue()` waits for it. Until then the page has no queue and shows no uploads. A failed load
 * (e.g. offline) is reported and the next `prepare()` tries again.
 */
export function useUploadQueue(allowedOrigins: readonly string[], onUploaded: (doc: UploadedDocument) => void) {
  const [queue, setQueue] = useState<UploadQueue | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const loading = useRef<Promise<UploadQueue> | null>(null);

  const prepare = (): Promise<UploadQueue> => {
    loading.current ??= import("@/app/documents/_components/create-upload-queue").then(
      ({ createUploadQueue }) => {
        const created = createUploadQueue(allowedOrigins, onUploaded);
        setQueue(created);
        setLoadFailed(false);
        return created;
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
    enqueue: (entries: { file: File; input: CreateDocumentInput }[]) => void prepare().then((q) => q.enqueue(entries), () => {}),
    cancel: (id: string) => queue?.cancel(id),
    retry: (id: string) => queue?.retry(id),
    dismiss: (id: string) => queue?.dismiss(id),
  };
}
