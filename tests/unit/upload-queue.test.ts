import { describe, expect, it } from "vitest";
import type { UploadedDocument } from "@/lib/upload/upload-document";
import { UploadError } from "@/lib/upload/upload-error";
import { UploadQueue, type RunUpload } from "@/lib/upload/upload-queue";

const input = (name: string) => ({ docid: null, name, doctype: "" });
const file = (name: string) => new File(["x"], name);

/** A run function whose uploads finish only when the test says so. */
function controllableRun() {
  const pending = new Map<string, { resolve: (d: UploadedDocument) => void; reject: (e: unknown) => void }>();
  const started: string[] = [];
  const run: RunUpload = (f, _input, _onStage, signal) =>
    new Promise((resolve, reject) => {
      started.push(f.name);
      pending.set(f.name, { resolve, reject });
      signal.addEventListener("abort", () => reject(new UploadError("UPLOAD_CANCELLED")));
    });
  return { run, started, finish: (name: string) => pending.get(name)!.resolve({ name } as UploadedDocument) };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe("UploadQueue", () => {
  it("uploads one file at a time, in order", async () => {
    const { run, started, finish } = controllableRun();
    const uploaded: string[] = [];
    const queue = new UploadQueue(run, (d) => uploaded.push(d.name));
    queue.enqueue([{ file: file("a"), input: input("aaa") }, { file: file("b"), input: input("bbb") }]);
    expect(started).toEqual(["a"]);
    expect(queue.getSnapshot().map((i) => i.status)).toEqual(["active", "queued"]);
    finish("a");
    await flush();
    expect(started).toEqual(["a", "b"]);
    finish("b");
    await flush();
    expect(uploaded).toEqual(["a", "b"]);
    expect(queue.getSnapshot().map((i) => i.status)).toEqual(["done", "done"]);
  });

  it("cancelling the running upload marks it cancelled with no result and moves on", async () => {
    const { run, started } = controllableRun();
    const uploaded: string[] = [];
    const queue = new UploadQueue(run, (d) => uploaded.push(d.name));
    queue.enqueue([{ file: file("a"), input: input("aaa") }, { file: file("b"), input: input("bbb") }]);
    queue.cancel(queue.getSnapshot()[0]!.id);
    await flush();
    const [first] = queue.getSnapshot();
    expect(first).toMatchObject({ status: "cancelled", result: null, error: null });
    expect(started).toEqual(["a", "b"]);
    expect(uploaded).toEqual([]);
  });

  it("cancelling a waiting file takes it off the queue; a failed one can be retried", async () => {
    const { run } = controllableRun();
    const queue = new UploadQueue(run, () => {});
    queue.enqueue([{ file: file("a"), input: input("aaa") }, { file: file("b"), input: input("bbb") }]);
    queue.cancel(queue.getSnapshot()[1]!.id);
    expect(queue.getSnapshot().map((i) => i.file.name)).toEqual(["a"]);
    queue.cancel(queue.getSnapshot()[0]!.id);
    await flush();
    queue.retry(queue.getSnapshot()[0]!.id);
    expect(queue.getSnapshot().map((i) => i.status)).toEqual(["active"]);
  });
});
