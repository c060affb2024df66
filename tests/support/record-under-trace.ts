/**
 * Opens the embedded database in a process of its own, as the server does (lib/db/client.ts), and writes on command,
 * so that a tracer (strace) sees which syscalls each step makes:
 * `node --import tsx --conditions=react-server tests/support/record-under-trace.ts <dir>`.
 * Prints "ready" once open. Each stdin line is a step, bracketed on stdout by "<step> start" and "<step> end" (Node
 * writes stdout to a pipe or socket synchronously on Linux, so the two writes mark the step's bounds in the trace):
 * - "record": records a document's "created" event, as `POST /api/documents` does before it answers 201;
 * - "checkpoint": runs CHECKPOINT;
 * - "close": closes the database and exits.
 */
import { createInterface } from "node:readline";
import { sql } from "drizzle-orm";
import { openDatabase } from "@/lib/db/client";
import { documentRecordsFor } from "@/lib/documents/document-records";

const database = await openDatabase({ dir: process.argv[2]! });
const records = documentRecordsFor(async () => database);
process.stdout.write("ready\n");

const steps: Record<string, () => Promise<unknown>> = {
  record: () =>
    records.recordEvents("user-under-trace", crypto.randomUUID(), [
      { id: crypto.randomUUID(), type: "created", at: new Date().toISOString(), fileId: crypto.randomUUID(), subdocid: 0, name: "Traced", doctype: "nda" },
    ], {}),
  checkpoint: () => database.db.execute(sql`checkpoint`),
  close: () => database.close(),
};

// One step at a time, in the order given.
let queue = Promise.resolve();
createInterface({ input: process.stdin }).on("line", (line) => {
  const step = steps[line];
  if (!step) return;
  queue = queue.then(async () => {
    process.stdout.write(`${line} start\n`);
    await step();
    process.stdout.write(`${line} end\n`);
    if (line === "close") process.exit(0);
  });
});
