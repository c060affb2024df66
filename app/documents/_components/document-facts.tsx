import type { RecentDocument } from "@/lib/document-history";
import { formatBytes } from "@/lib/upload/format";

type Props = { document: RecentDocument & { md5Verified?: boolean } };

/** The identifiers the service gave the document, plus size and checksum, selectable for copying. */
export function DocumentFacts({ document }: Props) {
  const checksumNote =
    document.md5Verified === undefined ? "" : document.md5Verified ? " (checked by storage)" : " (computed by storage)";
  const rows: [string, string][] = [
    ["Name", document.name || "—"],
    ["Item ID", document.itemId],
    ["File ID", document.fileId],
    ["Sub-document", String(document.subdocid)],
    ["Size", `${formatBytes(document.size)} (${document.size.toLocaleString("en")} bytes)`],
    ["MD5", document.md5Hex ? `${document.md5Hex}${checksumNote}` : "Not computed"],
  ];
  return (
    <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[7rem_1fr]" data-testid="document-facts">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="font-medium text-slate-500">{label}</dt>
          <dd className="break-all font-mono text-xs leading-5 text-slate-900 sm:text-sm" data-field={label}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
