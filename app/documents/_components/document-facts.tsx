import type { ReactNode } from "react";
import { formatBytes } from "@/lib/upload/format";
import type { UploadedDocument } from "@/lib/upload/upload-document";

// Put Block List stores the whole-file MD5 without checking it; what storage checked was each block's own MD5.
const CHECK_NOTES: Record<UploadedDocument["storageChecked"], string> = {
  file: "Checked by storage against the file's MD5",
  blocks: "Ours, stored on the blob; each block's MD5 checked by storage",
  none: "Computed by storage (file too large to hash first)",
};

type Props = {
  document: Pick<UploadedDocument, "name" | "itemId" | "fileId" | "subdocid" | "size" | "md5Hex" | "replacedItemId"> &
    Partial<Pick<UploadedDocument, "storageChecked">>;
};

/** The identifiers the service gave the document, plus size and checksum, selectable for copying. */
export function DocumentFacts({ document }: Props) {
  const checksumNote = document.storageChecked ? (
    <span className="block font-sans text-xs text-slate-500">{CHECK_NOTES[document.storageChecked]}</span>
  ) : null;
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
      ) : document.storageChecked === "blocks" ? (
        "Not computed for the whole file (too large to hash first); each block's MD5 checked by storage"
      ) : (
        "Not computed"
      ),
    ],
    ...(document.replacedItemId ? [["Created first", <ReplacedItem key="replaced" itemId={document.replacedItemId} />] satisfies [string, ReactNode]] : []),
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

/** The item a renewal left behind: the service holds it without a file, and the person should know its id. */
export function ReplacedItem({ itemId }: { itemId: string }) {
  return (
    <>
      {itemId}
      <span className="block font-sans text-xs text-slate-500">
        Its upload link was refused, so the document was created again; this first item has no file.
      </span>
    </>
  );
}
