import { cn } from "@/lib/utils";

/**
 * An id or hash (MD5, item id, request id) in monospace on one line: never broken mid-string. Where its column is
 * too narrow it ends in an ellipsis; the whole value stays in the text (a double-click selects it, a copy takes
 * it) and in the tooltip.
 */
export function CodeValue({ value, className, "data-testid": testId }: { value: string; className?: string; "data-testid"?: string }) {
  return (
    <span className={cn("block truncate font-mono", className)} title={value} translate="no" data-testid={testId}>
      {value}
    </span>
  );
}
