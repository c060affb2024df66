import type { HTMLAttributes } from "react";
import { cn } from "@/lib/utils";

export function Card({ className, ...props }: HTMLAttributes<HTMLElement>) {
  return <section className={cn("rounded-xl border border-slate-200 bg-white shadow-sm", className)} {...props} />;
}

/** `layout="row"` sets the title block and an action side by side (the caller picks the vertical alignment). */
export function CardHeader({ className, layout = "column", ...props }: HTMLAttributes<HTMLDivElement> & { layout?: "column" | "row" }) {
  return (
    <div
      className={cn("flex border-b border-slate-100 px-5 py-4", layout === "row" ? "flex-row justify-between gap-2" : "flex-col gap-1", className)}
      {...props}
    />
  );
}

export function CardTitle({ className, ...props }: HTMLAttributes<HTMLHeadingElement>) {
  return <h2 className={cn("text-base font-semibold text-slate-900", className)} {...props} />;
}

export function CardDescription({ className, ...props }: HTMLAttributes<HTMLParagraphElement>) {
  return <p className={cn("text-sm text-slate-600", className)} {...props} />;
}

export function CardContent({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn("px-5 py-4", className)} {...props} />;
}
