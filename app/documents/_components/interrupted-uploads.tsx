"use client";
import { useId, useState } from "react";
import { useLocale, useTranslations } from "next-intl";
import { formatBytes } from "@/lib/upload/format";
import { planBlocks } from "@/lib/upload/block-layout";
import type { SavedUpload } from "@/lib/upload/saved-upload";
import { Button, buttonClasses } from "@/components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

type Props = {
  uploads: readonly SavedUpload[];
  /** Checks the re-picked file and, when it is the same, resumes; resolves false when it is not. */
  onResume: (saved: SavedUpload, file: File) => Promise<boolean>;
  onDiscard: (saved: SavedUpload) => void;
};

/** Block uploads a reload interrupted: pick the same file again to send only the missing blocks. */
export function InterruptedUploads({ uploads, onResume, onDiscard }: Props) {
  const t = useTranslations("upload");
  if (uploads.length === 0) return null;
  return (
    <Card aria-labelledby="interrupted-title">
      <CardHeader>
        <CardTitle id="interrupted-title">{t("interruptedTitle")}</CardTitle>
        <CardDescription>{t("interruptedDescription")}</CardDescription>
      </CardHeader>
      <ul className="divide-y divide-slate-100">
        {uploads.map((saved) => (
          <InterruptedRow key={saved.id} saved={saved} onResume={onResume} onDiscard={onDiscard} />
        ))}
      </ul>
    </Card>
  );
}

function InterruptedRow({ saved, onResume, onDiscard }: { saved: SavedUpload; onResume: Props["onResume"]; onDiscard: Props["onDiscard"] }) {
  const inputId = useId();
  const [refused, setRefused] = useState(false);
  const [checking, setChecking] = useState(false);
  const t = useTranslations("upload");
  const locale = useLocale();
  const label = saved.input.name || saved.fileName;
  const { count } = planBlocks(saved.size, saved.blockSize);
  const progress = saved.point ? t("blocksSent", { sent: saved.point.staged.length, count }) : t("linkNotKept");

  const pick = async (file: File | undefined) => {
    if (!file) return;
    setChecking(true);
    const same = await onResume(saved, file);
    setChecking(false);
    setRefused(!same);
  };

  return (
    <li className="flex flex-col gap-2 px-5 py-4" data-testid="interrupted-upload">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="truncate text-sm font-semibold text-slate-900">{label}</h3>
          <p className="text-xs text-slate-500">
            {saved.fileName} · {formatBytes(saved.size, locale)} · {progress}
          </p>
        </div>
        <div className="flex gap-2">
          <input
            id={inputId}
            type="file"
            className="peer sr-only"
            disabled={checking}
            onChange={(event) => {
              void pick(event.target.files?.[0]);
              event.target.value = "";
            }}
          />
          <label htmlFor={inputId} className={buttonClasses("primary", "sm", "cursor-pointer peer-focus-visible:ring-2 peer-focus-visible:ring-brand-600")}>
            {checking ? t("checking") : t("resume")}
            <span className="sr-only">{t("chooseAgain", { fileName: saved.fileName })}</span>
          </label>
          <Button variant="ghost" size="sm" onClick={() => onDiscard(saved)} aria-label={t("discardLabel", { name: label })}>
            {t("discard")}
          </Button>
        </div>
      </div>
      {refused ? (
        <p role="alert" className="text-sm text-red-700" data-testid="resume-refused">
          {t("notSameFile", { fileName: saved.fileName })}
        </p>
      ) : null}
    </li>
  );
}
