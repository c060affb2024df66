"use client";
import { useEffect, useRef } from "react";
import { useLocale, useTranslations } from "next-intl";
import { useErrorText } from "@/lib/i18n/error-text";
import { UploadError } from "@/lib/upload/upload-error";
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

type UploadTranslator = ReturnType<typeof useTranslations<"upload">>;

const NOTICES = { restarted: "noticeRestarted", "blocks-discarded": "noticeBlocksDiscarded" } as const;

/** The notice stays on the row after the upload ends, so its tense follows the row's status. */
function noticeText(t: UploadTranslator, notice: NonNullable<QueueItem["notice"]>, status: QueueItem["status"]): string {
  if (notice !== "fallback") return t(NOTICES[notice]);
  if (status === "done") return t("fallbackDone");
  if (status === "failed" || status === "cancelled") return t("fallbackEnded");
  return t("fallbackActive");
}

/** What is happening now, in words: announced to screen readers on each change (not on each percent). */
function describeStage(t: UploadTranslator, item: QueueItem, locale: string): string {
  if (item.status === "queued") return item.resumePoint ? t("waitingToResume") : t("waitingForPrevious");
  if (item.status === "paused") return t("paused");
  const stage: UploadStage | null = item.stage;
  switch (stage?.stage) {
    case "hashing":
      return t("hashing");
    case "creating":
      return t("creating");
    case "uploading":
      return stage.mode === "blocks" ? t("uploadingBlocks") : t("uploading");
    case "retrying":
      return t("retrying", { delay: formatDuration(stage.delayMs / 1000, locale), attempt: stage.attempt, attempts: RETRY_DELAYS_MS.length });
    case "throttled":
      return t(stage.by === "service" ? "serviceThrottled" : "throttled", { delay: formatDuration(stage.delayMs / 1000, locale) });
    case "renewing":
      return t("renewing");
    case "restarting":
      return t("restarting");
    default:
      return t("starting");
  }
}

function progressDetails(t: UploadTranslator, item: QueueItem, locale: string): { value: number | null; text: string } {
  const { stage, progress, file } = item;
  if (stage?.stage === "hashing") {
    const value = file.size === 0 ? 100 : Math.floor((stage.hashedBytes / file.size) * 100);
    return { value, text: t("checked", { percent: value / 100, size: formatBytes(file.size, locale) }) };
  }
  if (!progress) return { value: null, text: formatBytes(file.size, locale) };
  const parts = [
    t("percent", { percent: progress.percent / 100 }),
    t("ofTotal", { loaded: formatBytes(progress.loaded, locale), total: formatBytes(progress.total, locale) }),
  ];
  // A paused upload has no pace: its last speed and time left would be stale.
  if (item.status === "paused") return { value: progress.percent, text: parts.join(" · ") };
  if (progress.bytesPerSecond) parts.push(formatSpeed(progress.bytesPerSecond, locale));
  if (progress.secondsLeft !== null && progress.percent < 100) parts.push(t("timeLeft", { duration: formatDuration(progress.secondsLeft, locale) }));
  return { value: progress.percent, text: parts.join(" · ") };
}

export function UploadItem(props: Props) {
  const { item } = props;
  const rowRef = useRef<HTMLElement>(null);
  const wasActive = useRef(false);
  const t = useTranslations("upload");
  const locale = useLocale();

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
      aria-label={t("itemLabel", { name: item.input.name || item.file.name })}
      data-testid="upload-item"
      data-upload-id={item.id}
      data-status={item.status}
      className="flex scroll-mb-4 flex-col gap-3 px-5 py-4 focus-visible:outline-none"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="truncate text-sm font-semibold text-slate-900" translate="no">{item.input.name || item.file.name}</h3>
          <p className="text-xs text-slate-500">
            {formatBytes(item.file.size, locale)}
            {item.input.doctype ? ` · ${item.input.doctype}` : ""}
          </p>
        </div>
        <ItemActions {...props} />
      </div>
      <ItemBody item={item} />
      {item.notice ? (
        <p className="text-xs text-slate-600" data-testid="upload-notice" data-notice={item.notice}>
          {noticeText(t, item.notice, item.status)}
        </p>
      ) : null}
    </article>
  );
}

function ItemActions({ item, onCancel, onRetry, onDismiss, onPause, onResume }: Props) {
  const t = useTranslations("upload");
  const common = useTranslations("common");
  const label = item.input.name || item.file.name;
  if (item.status === "queued" || item.status === "active" || item.status === "paused") {
    // Only a block upload can stop and go on where it was; a single PUT would start again from byte 0.
    const canPause = item.status === "active" && item.resumePoint !== null;
    return (
      <div className="flex gap-2">
        {canPause ? (
          <Button variant="secondary" size="sm" onClick={onPause} aria-label={t("pauseLabel", { name: label })}>
            {t("pause")}
          </Button>
        ) : null}
        {item.status === "paused" ? (
          <Button size="sm" onClick={onResume} data-action="resume" aria-label={t("resumeLabel", { name: label })}>
            {t("resume")}
          </Button>
        ) : null}
        <Button variant="secondary" size="sm" onClick={onCancel} aria-label={t("cancelLabel", { name: label })}>
          {t("cancel")}
        </Button>
      </div>
    );
  }
  return (
    <div className="flex gap-2">
      {item.status !== "done" ? (
        <Button variant="secondary" size="sm" onClick={onRetry}>
          {item.status === "cancelled" ? t("uploadAgain") : common("tryAgain")}
        </Button>
      ) : null}
      <Button variant="ghost" size="sm" onClick={onDismiss} aria-label={t("dismissLabel", { name: label })}>
        {t("dismiss")}
      </Button>
    </div>
  );
}

function ItemBody({ item }: { item: QueueItem }) {
  const t = useTranslations("upload");
  const locale = useLocale();
  if (item.status === "done" && item.result) {
    return (
      <div className="flex flex-col gap-3" data-testid="upload-success">
        <p role="status" className="flex items-center gap-2 text-sm font-medium text-emerald-700">
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
            <path fillRule="evenodd" d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0Z" clipRule="evenodd" />
          </svg>
          {t("uploaded")}
        </p>
        <DocumentFacts document={item.result} />
      </div>
    );
  }
  if (item.status === "failed" && item.error) return <UploadFailure cause={item.error.cause} />;
  if (item.status === "cancelled") {
    return (
      <p role="status" className="text-sm text-slate-600" data-testid="upload-cancelled">
        {t("cancelled")}
      </p>
    );
  }
  const { value, text } = progressDetails(t, item, locale);
  const stageText = describeStage(t, item, locale);
  return (
    <div className="flex flex-col gap-2">
      <ProgressBar
        value={item.status === "queued" ? 0 : value}
        label={t("progressLabel", { stage: stageText, name: item.input.name || item.file.name })}
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

/** Why the upload failed, in the page's language: storage's refusals by their code, our route handlers' by theirs. */
function UploadFailure({ cause }: { cause: unknown }) {
  const support = useBrandSupport();
  const t = useTranslations("upload");
  const uploadErrors = useTranslations("uploadErrors");
  const common = useTranslations("common");
  const errorText = useErrorText();
  const message = cause instanceof UploadError ? uploadErrors(cause.code) : errorText(cause instanceof Error ? cause : new Error(String(cause)));
  if (cause instanceof ApiError && cause.needsSignIn) {
    return (
      <Alert tone="warning" title={t("sessionExpiredTitle")} action={<SignInAgainButton />}>
        {message}
      </Alert>
    );
  }
  return (
    <Alert tone="error" title={t("failedTitle")} data-testid="upload-error">
      {message}
      {cause instanceof ApiError && cause.requestId ? <> {common("reference", { requestId: cause.requestId })}</> : null}
      <SupportContact support={support} className="mt-1" />
    </Alert>
  );
}
