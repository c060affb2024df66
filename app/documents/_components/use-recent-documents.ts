"use client";
import { useCallback, useSyncExternalStore } from "react";
import { addRecentDocument, clearRecentDocuments, readRecentDocuments, recentDocumentsKey, type RecentDocument } from "@/lib/document-history";
import type { UploadedDocument } from "@/lib/upload/upload-document";

const EMPTY: RecentDocument[] = [];
const localListeners = new Set<() => void>();
let cached: { key: string; raw: string | null; list: RecentDocument[] } | null = null;

function subscribe(listener: () => void) {
  localListeners.add(listener);
  // Another tab of the same user adding a document updates this list too.
  window.addEventListener("storage", listener);
  return () => {
    localListeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}

function notify() {
  for (const listener of localListeners) listener();
}

/** Adds a finished upload to the user's list and tells every mounted list to re-read it. */
export function recordRecentDocument(userKey: string, doc: UploadedDocument): void {
  addRecentDocument(localStorage, userKey, doc);
  notify();
}

/** This user's recent documents in this browser; empty during server rendering so hydration matches. */
export function useRecentDocuments(userKey: string) {
  const getSnapshot = useCallback(() => {
    const raw = localStorage.getItem(recentDocumentsKey(userKey));
    // The same array while the stored text is unchanged, as useSyncExternalStore requires.
    if (cached?.key !== userKey || cached.raw !== raw) cached = { key: userKey, raw, list: readRecentDocuments(localStorage, userKey) };
    return cached.list;
  }, [userKey]);
  const documents = useSyncExternalStore(subscribe, getSnapshot, () => EMPTY);
  const clear = useCallback(() => {
    clearRecentDocuments(localStorage, userKey);
    notify();
  }, [userKey]);
  return { documents, clear };
}
