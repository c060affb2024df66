import { indexedDbStore } from "@/lib/browser/indexed-db-store";
import type { OutboxEntry, OutboxStore } from "@/lib/documents/report-outbox";
import { REPORT_OUTBOX_DB } from "@/lib/documents/report-outbox-presence";

const run = indexedDbStore(REPORT_OUTBOX_DB, "outbox");

/** Undelivered document reports in IndexedDB, every user's in one store, each entry tagged with its userKey. */
export const indexedDbOutboxStore: OutboxStore = {
  put: (entry) => run("readwrite", (store) => store.put(entry)),
  async list(userKey) {
    const all = (await run("readonly", (store) => store.getAll())) as OutboxEntry[];
    return all.filter((entry) => entry.userKey === userKey);
  },
  remove: (ids) =>
    run("readwrite", (store) => {
      for (const id of ids) store.delete(id);
    }),
};
