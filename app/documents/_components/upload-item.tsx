"use client";
import { useEffect, useRef } from "react";
import { ApiError } from "@/lib/api-client";
import { formatBytes, formatDuration, formatSpeed } from "@/lib/upload/format";
import { RETRY_DELAYS_MS } from "@/lib/upload/backoff";
import type { UploadStage } from "@/lib/upload/upload-document";
import type { QueueItem } from "@/lib/upload/upload-queue";
import { Alert } from "@/components/ui/alert";
import { SupportContact } from "@/components/support-contact";
import { useBrandSupport } from "@/components/brand-support-context";
import { Button } from "@/components/ui/button";
import { ProgressBar } from "@/components/ui/progress-bar";
import { SignInAgainButton } from "@/components/sign-in-again-button";
import { DocumentFacts } from "@/app/documents/_components/document-facts";

type Props = {
  item: QueueItem;
  onCancel: () => void;
  onRetry: () => void;
  onDismiss: () => void;
  onPause: () => void;
  onResume: () => void;
};

const NOTICES: Record<Exclude<NonNullable<QueueItem["notice"]>, "fallback">, string> = {
  restarted: "The earlier upload link had expired, so this upload started over with a new one.",
  "blocks-discarded": "Blocks already sent were never committed; storage deletes them on its own.",
};

/** The notice stays on the row after the upload ends, so its tense follows the row's status. */
function noticeText(notice: NonNullable<QueueItem["notice"]>, status: QueueItem["status"]): string {
  if (notice !== "fallback") return NOTICES[notice];
  const refused = "Storage refused staged blocks for this address, so the file";
  if (status === "done") return `${refused} was sent in one piece.`;
  if (status === "failed" || status === "cancelled") return `${refused} went in one piece (no pause or resume).`;
  return `${refused} is sent in one piece (no pause or resume).`;
}

/** What is happening now, in words: announced to screen readers on each change (not on each percent). */
function describeStage(item: QueueItem): string {
  if (item.status === "queued") return item.resumePoint ? "Waiting to resume" : "Waiting for the upload before it to finish";
  if (item.status === "paused") return "Paused — Resume sends only the blocks still missing";
  const stage: UploadStage | null = item.stage;
  switch (stage?.stage) {
    case "hashing":
      return "Computing the checksum";
    case "creating":
      return "Creating the document";
    case "uploading":
      return stage.mode === "blocks" ? "Uploading in blocks" : "Uploading";
    case "retrying":
      return `Connection lost — retrying in ${formatDuration(stage.delayMs / 1000)} (attempt ${stage.attempt} of ${RETRY_DELAYS_MS.length})`;
    case "renewing":
      return "Your upload link was refused — creating the document again for a new link";
    case "restarting":
      return "Your earlier upload link expired — starting over with a new one";
    default:
      return "Starting";
  }
}

function progressDetails(item: QueueItem): { value: number | null; text: string } {
  const { stage, progress, file } = item;
  if (stage?.stage === "hashing") {
    const value = file.size === 0 ? 100 : Math.floor((stage.hashedBytes / file.size) * 100);
    return { value, text: `${value} % of ${formatBytes(file.size)} checked` };
  }
  if (!progress) return { value: null, text: formatBytes(file.size) };
  const parts = [`${progress.percent} %`, `${formatBytes(progress.loaded)} of ${formatBytes(progress.total)}`];
  // A paused upload has no pace: its last speed and time left would be stale.
  if (item.status === "paused") return { value: progress.percent, text: parts.join(" · ") };
  if (progress.bytesPerSecond) parts.push(formatSpeed(progress.bytesPerSecond));
  if (progress.secondsLeft !== null && progress.percent < 100) parts.push(`${formatDuration(progress.secondsLeft)} left`);
  return { value: progress.percent, text: parts.join(" · ") };
}

export function UploadItem(props: Props) {
  const { item } = props;
  const rowRef = useRef<HTMLElement>(null);
  const wasActive = useRef(false);

  // When the row's buttons change under the user (Cancel or Pause disappears), keep keyboard focus in the
  // row — on Resume after a pause, the one thing a keyboard user wants next.
  useEffect(() => {
    const row = rowRef.current;
    if (wasActive.current && item.status !== "active" && row && (document.activeElement === document.body || row.contains(document.activeElement))) {
      const resume = item.status === "paused" ? row.querySelector<HTMLButtonElement>("[data-action=resume]") : null;
      (resume ?? row).focus();
    }
    wasActive.current = item.status === "active";
  }, [item.status]);

  return (
    <article
      ref={rowRef}
      tabIndex={-1}
      aria-label={`Upload of ${item.input.name || item.file.name}`}
      data-testid="upload-item"
      data-status={item.status}
      className="flex flex-col gap-3 px-5 py-4 focus-visible:outline-none"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="truncate text-sm font-semibold text-slate-900">{item.input.name || item.file.name}</h3>
          <p className="text-xs text-slate-500">
            {formatBytes(item.file.size)}
            {item.input.doctype ? ` · ${item.input.doctype}` : ""}
          </p>
        </div>
        <ItemActions {...props} />
      </div>
      <ItemBody item={item} />
      {item.notice ? (
        <p className="text-xs text-slate-600" data-testid="upload-notice" data-notice={item.notice}>
          {noticeText(item.notice, item.status)}
        </p>
      ) : null}
    </article>
  );
}

function ItemActions({ item, onCancel, onRetry, onDismiss, onPause, onResume }: Props) {
  const label = item.input.name || item.file.name;
  if (item.status === "queued" || item.status === "active" || item.status === "paused") {
    // Only a block upload can stop and go on where it was; a single PUT would start again from byte 0.
    const canPause = item.status === "active" && item.resumePoint !== null;
    return (
      <div className="flex gap-2">
        {canPause ? (
          <Button variant="secondary" size="sm" onClick={onPause} aria-label={`Pause upload of ${label}`}>
            Pause
          </Button>
        ) : null}
        {item.status === "paused" ? (
          <Button size="sm" onClick={onResume} data-action="resume" aria-label={`Resume upload of ${label}`}>
            Resume
          </Button>
        ) : null}
        <Button variant="secondary" size="sm" onClick={onCancel} aria-label={`Cancel upload of ${label}`}>
          Cancel
        </Button>
      </div>
    );
  }
  return (
    <div className="flex gap-2">
      {item.status !== "done" ? (
        <Button variant="secondary" size="sm" onClick={onRetry}>
          {item.status === "cancelled" ? "Upload again" : "Try again"}
        </Button>
      ) : null}
      <Button variant="ghost" size="sm" onClick={onDismiss} aria-label={`Dismiss ${label}`}>
        Dismiss
      </Button>
    </div>
  );
}

function ItemBody({ item }: { item: QueueItem }) {
  if (item.status === "done" && item.result) {
    return (
      <div className="flex flex-col gap-3" data-testid="upload-success">
        <p role="status" className="flex items-center gap-2 text-sm font-medium text-emerald-700">
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
            <path fillRule="evenodd" d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0Z" clipRule="evenodd" />
          </svg>
          Uploaded
        </p>
        <DocumentFacts document={item.result} />
      </div>
    );
  }
  if (item.status === "failed" && item.error) return <UploadFailure cause={item.error.cause} message={item.error.message} />;
  if (item.status === "cancelled") {
    return (
      <p role="status" className="text-sm text-slate-600" data-testid="upload-cancelled">
        Upload cancelled. The file was not stored.
      </p>
    );
  }
  const { value, text } = progressDetails(item);
  const stageText = describeStage(item);
  return (
    <div className="flex flex-col gap-2">
      <ProgressBar
        value={item.status === "queued" ? 0 : value}
        label={`${stageText}: ${item.input.name || item.file.name}`}
        valueText={text}
      />
      <div className="flex flex-wrap justify-between gap-x-4 gap-y-1 text-xs text-slate-600">
        <span role="status">{stageText}</span>
        <span data-testid="upload-progress-text" className="tabular-nums">
          {item.status === "queued" ? "" : text}
        </span>
      </div>
    </div>
  );
}

function UploadFailure({ cause, message }: { cause: unknown; message: string }) {
  const support = useBrandSupport();
  if (cause instanceof ApiError && cause.needsSignIn) {
    return (
      <Alert tone="warning" title="Your session has expired" action={<SignInAgainButton />}>
        {message}
      </Alert>
    );
  }
  const reference = cause instanceof ApiError && cause.requestId ? ` (reference ${cause.requestId})` : "";
  return (
    <Alert tone="error" title="Upload failed" data-testid="upload-error">
      {message}
      {reference}
      <SupportContact support={support} className="mt-1" />
    </Alert>
  );
}
