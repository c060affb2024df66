import type { CreateDocumentInput } from "@/lib/esign/schemas";
import { createProgressTracker, type UploadProgress } from "@/lib/upload/progress-tracker";
import type { UploadStage, UploadedDocument } from "@/lib/upload/upload-document";
import { UploadError } from "@/lib/upload/upload-error";

export type QueueItemStatus = "queued" | "active" | "done" | "failed" | "cancelled";

/** A failure as the UI shows it; `cause` is kept for code-specific next steps. */
export type QueueItemError = { message: string; cause: unknown };

export type QueueItem = {
  id: string;
  file: File;
  input: CreateDocumentInput;
  status: QueueItemStatus;
  stage: UploadStage | null;
  progress: UploadProgress | null;
  result: UploadedDocument | null;
  error: QueueItemError | null;
};

export type RunUpload = (
  file: File,
  input: CreateDocumentInput,
  onStage: (stage: UploadStage) => void,
  signal: AbortSignal,
) => Promise<UploadedDocument>;

let nextId = 0;

/**
 * Files waiting to be uploaded, uploaded one after another (one PUT at a time gets the full bandwidth
 * and a predictable time left). A plain store for `useSyncExternalStore`: every change replaces the
 * item and the list, so React sees new snapshots.
 */
export class UploadQueue {
  private items: readonly QueueItem[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly controllers = new Map<string, AbortController>();

  constructor(
    private readonly run: RunUpload,
    private readonly onUploaded: (doc: UploadedDocument) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): readonly QueueItem[] => this.items;

  /** Adds files at the end of the queue and starts the next one if nothing is uploading. */
  enqueue(entries: { file: File; input: CreateDocumentInput }[]): void {
    const added = entries.map(
      ({ file, input }): QueueItem => ({
        id: `upload-${++nextId}`,
        file,
        input,
        status: "queued",
        stage: null,
        progress: null,
        result: null,
        error: null,
      }),
    );
    this.set([...this.items, ...added]);
    this.startNext();
  }

  /** Aborts the running upload, or takes a waiting one off the queue. */
  cancel(id: string): void {
    const item = this.items.find((i) => i.id === id);
    if (item?.status === "queued") this.remove(id);
    else this.controllers.get(id)?.abort();
  }

  /** Puts a failed or cancelled upload back at the end of the queue. */
  retry(id: string): void {
    const item = this.items.find((i) => i.id === id);
    if (!item || (item.status !== "failed" && item.status !== "cancelled")) return;
    this.remove(id);
    this.enqueue([{ file: item.file, input: item.input }]);
  }

  /** Removes a finished row from view. */
  dismiss(id: string): void {
    if (this.items.find((i) => i.id === id)?.status === "active") return;
    this.remove(id);
  }

  private startNext(): void {
    if (this.items.some((i) => i.status === "active")) return;
    const next = this.items.find((i) => i.status === "queued");
    if (!next) return;
    const controller = new AbortController();
    this.controllers.set(next.id, controller);
    const tracker = createProgressTracker(next.file.size);
    this.update(next.id, { status: "active" });

    const onStage = (stage: UploadStage) => {
      if (controller.signal.aborted) return;
      // A retry starts the PUT again from byte 0; the bar keeps showing the furthest point reached.
      const progress = stage.stage === "uploading" ? tracker.update(stage.loadedBytes, this.now()) : undefined;
      this.update(next.id, progress ? { stage, progress } : { stage });
    };

    this.run(next.file, next.input, onStage, controller.signal)
      .then(
        (result) => {
          // A cancel that arrives after storage answered 201 is too late: the file is stored, so say so.
          this.update(next.id, { status: "done", result, stage: null, error: null });
          this.onUploaded(result);
        },
        (error: unknown) => {
          const cancelled = controller.signal.aborted || (error instanceof UploadError && error.code === "UPLOAD_CANCELLED");
          this.update(next.id, {
            status: cancelled ? "cancelled" : "failed",
            stage: null,
            progress: null,
            error: cancelled ? null : { message: error instanceof Error ? error.message : String(error), cause: error },
          });
        },
      )
      .finally(() => {
        this.controllers.delete(next.id);
        this.startNext();
      });
  }

  private update(id: string, patch: Partial<QueueItem>): void {
    this.set(this.items.map((i) => (i.id === id ? { ...i, ...patch } : i)));
  }

  private remove(id: string): void {
    this.set(this.items.filter((i) => i.id !== id));
  }

  private set(items: readonly QueueItem[]): void {
    this.items = items;
    for (const listener of this.listeners) listener();
  }
}
