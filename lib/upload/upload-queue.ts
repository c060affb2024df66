import type { CreateDocumentInput } from "@/lib/esign/schemas";
import { createProgressTracker, type UploadProgress } from "@/lib/upload/progress-tracker";
import type { ResumePoint } from "@/lib/upload/resume-point";
import { UPLOAD_PAUSED, type UploadStage, type UploadedDocument } from "@/lib/upload/upload-document";
import { UploadError } from "@/lib/upload/upload-error";

export type QueueItemStatus = "queued" | "active" | "paused" | "done" | "failed" | "cancelled";

/** Something the row keeps saying after the stage moved on. */
export type QueueItemNotice = "fallback" | "restarted" | "blocks-discarded";

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
  /** Where a block upload can pick up again (pause, dropped connection, reload); null in single-PUT mode. */
  resumePoint: ResumePoint | null;
  /** The document an interrupted upload went to before its link expired: this one replaces it. */
  replacesItemId: string | null;
  notice: QueueItemNotice | null;
};

/** Persists resume points so an upload survives a reload (IndexedDB in the app). */
export type ResumeSaver = {
  save: (item: QueueItem, point: ResumePoint) => void;
  remove: (itemId: string) => void;
};

export type RunUpload = (
  file: File,
  input: CreateDocumentInput,
  onStage: (stage: UploadStage) => void,
  signal: AbortSignal,
  resume: { from: ResumePoint | null; replaces: string | null; onPoint: (point: ResumePoint | null) => void },
) => Promise<UploadedDocument>;

export type UploadQueueOptions = {
  /** Clock for the progress tracker's rate and time left. */
  now?: () => number;
  /** Persists resume points so an upload survives a reload. */
  saver?: ResumeSaver;
  /** A paused upload was cancelled: the document its staged blocks were for will never get its file. */
  onAbandoned?: (itemId: string) => void;
};

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
  private readonly pausing = new Set<string>();

  private readonly now: () => number;
  private readonly saver?: ResumeSaver;
  private readonly onAbandoned?: (itemId: string) => void;

  constructor(
    private readonly run: RunUpload,
    private readonly onUploaded: (doc: UploadedDocument) => void,
    options: UploadQueueOptions = {},
  ) {
    this.now = options.now ?? (() => performance.now());
    this.saver = options.saver;
    this.onAbandoned = options.onAbandoned;
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): readonly QueueItem[] => this.items;

  /** Adds files at the end of the queue and starts the next one if nothing is uploading. */
  enqueue(
    entries: { file: File; input: CreateDocumentInput; resumeFrom?: ResumePoint; replacesItemId?: string; notice?: QueueItemNotice; id?: string }[],
  ): void {
    const added = entries.map(
      ({ file, input, resumeFrom, replacesItemId, notice, id }): QueueItem => ({
        // A resumed upload keeps its saved id, so its saved record is updated rather than duplicated.
        id: id ?? `upload-${Date.now().toString(36)}-${++nextId}`,
        file,
        input,
        status: "queued",
        stage: null,
        progress: null,
        result: null,
        error: null,
        resumePoint: resumeFrom ?? null,
        replacesItemId: replacesItemId ?? null,
        notice: notice ?? null,
      }),
    );
    this.set([...this.items, ...added]);
    this.startNext();
  }

  /** Aborts the running upload, or takes a waiting one off the queue; a paused one is dropped for good. */
  cancel(id: string): void {
    const item = this.items.find((i) => i.id === id);
    if (item?.status === "queued") this.remove(id);
    else if (item?.status === "paused") {
      this.update(id, { status: "cancelled", stage: null, progress: null, resumePoint: null, notice: "blocks-discarded" });
      // Its run already ended with the pause, so nothing else tells the record that this document is given up.
      if (item.resumePoint) this.onAbandoned?.(item.resumePoint.created.itemId);
    }
    else this.controllers.get(id)?.abort();
    this.saver?.remove(id);
  }

  /** Stops a block upload in flight and keeps its staged blocks; `resume` sends only the missing ones. */
  pause(id: string): void {
    const item = this.items.find((i) => i.id === id);
    if (item?.status !== "active" || !item.resumePoint) return;
    this.pausing.add(id);
    this.controllers.get(id)?.abort(UPLOAD_PAUSED);
  }

  /** Puts a paused upload back in the queue, where it continues from its staged blocks. */
  resume(id: string): void {
    if (this.items.find((i) => i.id === id)?.status !== "paused") return;
    this.update(id, { status: "queued" });
    this.startNext();
  }

  /** Puts a failed or cancelled upload back at the end of the queue; a failed block upload keeps its staged blocks. */
  retry(id: string): void {
    const item = this.items.find((i) => i.id === id);
    if (!item || (item.status !== "failed" && item.status !== "cancelled")) return;
    this.remove(id);
    const keep = item.status === "failed" && item.resumePoint;
    this.enqueue([{ file: item.file, input: item.input, ...(keep ? { resumeFrom: item.resumePoint!, id: item.id } : {}) }]);
  }

  /** Removes a finished row from view; a failed block upload's saved point goes with it. */
  dismiss(id: string): void {
    if (this.items.find((i) => i.id === id)?.status === "active") return;
    this.remove(id);
    this.saver?.remove(id);
  }

  private startNext(): void {
    if (this.items.some((i) => i.status === "active")) return;
    const next = this.items.find((i) => i.status === "queued");
    if (!next) return;
    const controller = new AbortController();
    this.controllers.set(next.id, controller);
    const tracker = createProgressTracker(next.file.size);
    this.update(next.id, { status: "active", error: null });

    const onStage = (stage: UploadStage) => {
      if (controller.signal.aborted) return;
      // A retry starts the PUT again from byte 0; the bar keeps showing the furthest point reached.
      const progress = stage.stage === "uploading" ? tracker.update(stage.loadedBytes, this.now()) : undefined;
      const notice =
        stage.stage === "restarting" ? "restarted" : stage.stage === "uploading" && stage.mode === "fallback" ? "fallback" : undefined;
      this.update(next.id, { stage, ...(progress ? { progress } : {}), ...(notice ? { notice } : {}) });
    };
    const onPoint = (point: ResumePoint | null) => {
      this.update(next.id, { resumePoint: point });
      const item = this.items.find((i) => i.id === next.id);
      if (point && item) this.saver?.save(item, point);
      else this.saver?.remove(next.id);
    };

    this.run(next.file, next.input, onStage, controller.signal, { from: next.resumePoint, replaces: next.replacesItemId, onPoint })
      .then(
        (result) => {
          // A cancel that arrives after storage answered 201 is too late: the file is stored, so say so.
          this.update(next.id, { status: "done", result, stage: null, error: null, resumePoint: null });
          this.saver?.remove(next.id);
          this.onUploaded(result);
        },
        (error: unknown) => {
          const cancelled = controller.signal.aborted || (error instanceof UploadError && error.code === "UPLOAD_CANCELLED");
          const paused = cancelled && this.pausing.has(next.id);
          if (cancelled && !paused) this.saver?.remove(next.id);
          this.update(next.id, {
            status: paused ? "paused" : cancelled ? "cancelled" : "failed",
            stage: null,
            progress: paused ? this.items.find((i) => i.id === next.id)!.progress : null,
            error: cancelled ? null : { message: error instanceof Error ? error.message : String(error), cause: error },
            // Staged blocks are never committed after a cancel; storage drops them by itself (Azure: after 7 days).
            ...(cancelled && !paused ? { resumePoint: null, notice: this.hadBlocks(next.id) ? "blocks-discarded" : null } : {}),
          });
        },
      )
      .finally(() => {
        this.pausing.delete(next.id);
        this.controllers.delete(next.id);
        this.startNext();
      });
  }

  private hadBlocks(id: string): boolean {
    return Boolean(this.items.find((i) => i.id === id)?.resumePoint);
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
