import type { ReactNode } from "react";
import type { RecentDocument } from "@/lib/document-history";
import { formatBytes } from "@/lib/upload/format";
import type { TransferMode } from "@/lib/upload/upload-document";

// Put Block List stores the whole-file MD5 without checking it; what storage checked was each block's own MD5.
const BLOCKS_NOTE = "Ours, stored with the file; storage checked each block against the block's MD5";

type Props = { document: RecentDocument & { md5Verified?: boolean; transfer?: TransferMode } };

/** The identifiers the service gave the document, plus size and checksum, selectable for copying. */
export function DocumentFacts({ document }: Props) {
  const checksumNote =
    document.md5Verified === undefined ? null : (
      <span className="block font-sans text-xs text-slate-500">
        {document.transfer === "blocks"
          ? BLOCKS_NOTE
          : document.md5Verified
            ? "Checked by storage against the file's MD5"
            : "Computed by storage (file too large to hash first)"}
      </span>
    );
  const rows: [string, ReactNode][] = [
    ["Name", document.name || "—"],
    ["Item ID", document.itemId],
    ["File ID", document.fileId],
    ["Sub-document", String(document.subdocid)],
    ["Size", `${formatBytes(document.size)} (${document.size.toLocaleString("en")} bytes)`],
    [
      "MD5",
      document.md5Hex ? (
        <>
          <span data-testid="md5-hex">{document.md5Hex}</span>
          {checksumNote}
        </>
      ) : document.transfer === "blocks" ? (
        "Not computed for the whole file (too large to hash first); storage checked each block's MD5"
      ) : (
        "Not computed"
      ),
    ],
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
