import { describe, expect, it } from "vitest";
import type { UploadedDocument } from "@/lib/upload/upload-document";
import { UploadError } from "@/lib/upload/upload-error";
import type { ResumePoint } from "@/lib/upload/resume-point";
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

  it("pauses a block upload keeping its staged blocks, and resumes it from them; saves and forgets the point; a paused one cancelled is abandoned", async () => {
    const point = (staged: number[]) => ({ created: { itemId: "item-big" } as never, md5: null, blockSize: 10, staged });
    const froms: (ResumePoint | null)[] = [];
    let report: (p: ResumePoint | null) => void = () => {};
    const run: RunUpload = (_f, _input, _onStage, signal, resume) =>
      new Promise((_resolve, reject) => {
        froms.push(resume.from);
        report = resume.onPoint;
        signal.addEventListener("abort", () => reject(new UploadError("UPLOAD_CANCELLED")));
      });
    const saved: string[] = [];
    const abandoned: string[] = [];
    const queue = new UploadQueue(run, () => {}, {
      saver: {
        save: (item, p) => saved.push(`save ${item.id} ${p.staged.join(",")}`),
        remove: (id) => saved.push(`remove ${id}`),
      },
      onAbandoned: (itemId) => abandoned.push(itemId),
    });
    queue.enqueue([{ file: file("big"), input: input("big") }]);
    const id = queue.getSnapshot()[0]!.id;
    queue.pause(id);
    await flush();
    // Nothing to resume from yet (no block mode): Pause does nothing.
    expect(queue.getSnapshot()[0]!.status).toBe("active");
    report(point([0, 1]));
    queue.pause(id);
    await flush();
    expect(queue.getSnapshot()[0]).toMatchObject({ status: "paused", resumePoint: { staged: [0, 1] } });
    queue.resume(id);
    expect(froms).toEqual([null, point([0, 1])]);
    // A cancel while running ends the run, which reports it; only a cancel while paused is the queue's to report.
    queue.cancel(id);
    await flush();
    expect(queue.getSnapshot()[0]).toMatchObject({ status: "cancelled", resumePoint: null, notice: "blocks-discarded" });
    expect(saved).toEqual([`save ${id} 0,1`, `remove ${id}`, `remove ${id}`]);
    expect(abandoned).toEqual([]);

    queue.retry(id);
    const again = queue.getSnapshot()[0]!.id;
    report(point([0]));
    queue.pause(again);
    await flush();
    expect(queue.getSnapshot()[0]!.status).toBe("paused");
    queue.cancel(again);
    expect(queue.getSnapshot()[0]).toMatchObject({ status: "cancelled", resumePoint: null });
    expect(abandoned).toEqual(["item-big"]);
  });

  it("keeps a note on the row when an expired upload link made the upload start over, and when blocks fell back", async () => {
    const stages: Parameters<Parameters<RunUpload>[2]>[0][] = [{ stage: "restarting" }, { stage: "uploading", loadedBytes: 1, mode: "blocks" }];
    const run: RunUpload = async (_f, _input, onStage) => {
      for (const stage of stages) onStage(stage);
      return { name: "big" } as UploadedDocument;
    };
    const queue = new UploadQueue(run, () => {});
    queue.enqueue([{ file: file("big"), input: input("big") }]);
    await flush();
    expect(queue.getSnapshot()[0]).toMatchObject({ status: "done", notice: "restarted" });

    stages.splice(0, 2, { stage: "uploading", loadedBytes: 1, mode: "fallback" });
    queue.enqueue([{ file: file("other"), input: input("other") }]);
    await flush();
    expect(queue.getSnapshot()[1]).toMatchObject({ status: "done", notice: "fallback" });
  });
});
