"use client";
import { useEffect, useRef, useState, type FocusEvent, type MouseEvent, type ReactNode } from "react";
import { useTranslations } from "next-intl";
import { cn } from "@/lib/utils";

/**
 * The signed-in header's controls (navigation, name, language, sign-out): inline from the `sm` breakpoint up, as
 * they always were; below it behind one Menu button, so that a phone's header stays one row. A disclosure: the
 * button tells whether the panel is open (aria-expanded) and which element it opens (aria-controls). Escape closes
 * it and gives focus back to the button; so does following a link in it; a click or focus outside closes it.
 */
export function HeaderMenu({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const t = useTranslations("header");

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
    };
  }, [open]);

  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    if (event.relatedTarget && !event.currentTarget.contains(event.relatedTarget)) setOpen(false);
  };
  const onPanelClick = (event: MouseEvent<HTMLDivElement>) => {
    if ((event.target as Element).closest("a")) setOpen(false);
  };

  return (
    <div ref={root} onBlur={onBlur} className="flex items-center">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls="header-menu-panel"
        onClick={() => setOpen((was) => !was)}
        className="flex items-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100 sm:hidden"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5 fill-none stroke-current" strokeWidth="1.5">
          <path d={open ? "M5 5l10 10M15 5 5 15" : "M3 5.5h14M3 10h14M3 14.5h14"} />
        </svg>
        {t("menu")}
      </button>
      <div
        id="header-menu-panel"
        onClick={onPanelClick}
        className={cn(
          "absolute inset-x-0 top-full z-20 flex-col items-stretch gap-3 border-b border-slate-200 bg-white px-4 py-3 shadow-lg",
          "sm:static sm:flex sm:flex-row sm:items-center sm:gap-4 sm:border-0 sm:bg-transparent sm:p-0 sm:shadow-none",
          open ? "flex" : "hidden",
        )}
      >
        {children}
      </div>
    </div>
  );
}
