"use client";
import type { QueueItem } from "@/lib/upload/upload-queue";
import { useTranslations } from "next-intl";
import { Card, CardHeader, CardTitle } from "@/components/ui/card";
import { UploadItem } from "@/app/documents/_components/upload-item";

type Props = {
  items: readonly QueueItem[];
  onCancel: (id: string) => void;
  onRetry: (id: string) => void;
  onDismiss: (id: string) => void;
  onPause: (id: string) => void;
  onResume: (id: string) => void;
};

/** The queue: one row per file, in the order they are uploaded. */
export function UploadList({ items, onCancel, onRetry, onDismiss, onPause, onResume }: Props) {
  const t = useTranslations("upload");
  if (items.length === 0) return null;
  const waiting = items.filter((i) => i.status === "queued").length;
  return (
    <Card aria-labelledby="uploads-title">
      <CardHeader layout="row" className="items-center">
        <CardTitle id="uploads-title">{t("uploadsTitle")}</CardTitle>
        {waiting > 0 ? <span className="text-sm text-slate-500">{t("waiting", { count: waiting })}</span> : null}
      </CardHeader>
      <ul className="divide-y divide-slate-100">
        {items.map((item) => (
          <li key={item.id}>
            <UploadItem
              item={item}
              onCancel={() => onCancel(item.id)}
              onRetry={() => onRetry(item.id)}
              onDismiss={() => onDismiss(item.id)}
              onPause={() => onPause(item.id)}
              onResume={() => onResume(item.id)}
            />
          </li>
        ))}
      </ul>
    </Card>
  );
}
