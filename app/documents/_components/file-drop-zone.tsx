"use client";
import { useId, useState, type DragEvent } from "react";
import { useTranslations } from "next-intl";
import { cn } from "@/lib/utils";

/**
 * Drop files here or choose them. The real file input stays in the tab order (visually hidden), so
 * keyboard users reach it with Tab and open the picker with Space or Enter; the styled label shows its focus.
 * Where the pointer is coarse (a touch screen) there is nothing to drag from, so "Drag files here" is hidden by CSS
 * (`@media (pointer: coarse)`): the server and the browser render the same HTML, whatever the device.
 */
export function FileDropZone({ onFiles }: { onFiles: (files: File[]) => void }) {
  const inputId = useId();
  const hintId = useId();
  const [dragging, setDragging] = useState(false);
  const t = useTranslations("upload");

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const files = Array.from(event.dataTransfer.files);
    if (files.length > 0) onFiles(files);
  };

  return (
    <div
      data-testid="drop-zone"
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      className={cn(
        "flex flex-col items-center gap-3 rounded-lg border-2 border-dashed px-4 py-8 text-center transition-colors",
        dragging ? "border-brand-600 bg-brand-50" : "border-slate-300 bg-slate-50/60",
      )}
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-8 text-slate-400" fill="none" stroke="currentColor" strokeWidth={1.5}>
        <path strokeLinecap="round" strokeLinejoin="round" d="M12 16V4m0 0-4 4m4-4 4 4M4 16v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2" />
      </svg>
      <p className="text-sm text-slate-700 pointer-coarse:hidden" data-testid="drop-here">
        {t("dropHere")}
      </p>
      <input
        id={inputId}
        type="file"
        multiple
        aria-describedby={hintId}
        className="peer sr-only"
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          if (files.length > 0) onFiles(files);
          // Choosing the same file again must fire `change` again.
          event.target.value = "";
        }}
      />
      <label
        htmlFor={inputId}
        className="inline-flex h-10 cursor-pointer items-center rounded-md border border-slate-300 bg-white px-4 text-sm font-medium text-slate-800 shadow-sm hover:bg-slate-50 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600"
      >
        {t("chooseFiles")}
      </label>
      <p id={hintId} className="text-xs text-slate-500">
        {t("dropHint")}
      </p>
    </div>
  );
}
