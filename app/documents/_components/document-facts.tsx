import type { ReactNode } from "react";
import { useLocale, useTranslations } from "next-intl";
import { formatBytes } from "@/lib/upload/format";
import type { UploadedDocument } from "@/lib/upload/upload-document";
import { CodeValue } from "@/components/ui/code-value";

// Put Block List stores the whole-file MD5 without checking it; what storage checked was each block's own MD5.
const CHECK_NOTES = { file: "checkedFile", blocks: "checkedBlocks", none: "checkedNone" } as const satisfies Record<UploadedDocument["storageChecked"], string>;

type Props = {
  document: Pick<UploadedDocument, "name" | "itemId" | "fileId" | "subdocid" | "size" | "md5Hex" | "replacedItemId"> &
    Partial<Pick<UploadedDocument, "storageChecked">>;
};

/** The identifiers the service gave the document, plus size and checksum, selectable for copying. */
export function DocumentFacts({ document }: Props) {
  const t = useTranslations("upload");
  const documents = useTranslations("documents");
  const locale = useLocale();
  const checksumNote = document.storageChecked ? (
    <span className="block font-sans text-xs text-slate-500">{t(CHECK_NOTES[document.storageChecked])}</span>
  ) : null;
  // [field (its data-field, stable for tests), label, value]
  const rows: [string, string, ReactNode][] = [
    ["Name", t("factName"), document.name ? <span translate="no" className="break-words font-sans">{document.name}</span> : "—"],
    ["Item ID", t("factItemId"), <CodeValue key="item" value={document.itemId} />],
    ["File ID", t("factFileId"), <CodeValue key="file" value={document.fileId} />],
    ["Sub-document", t("factSubdocument"), String(document.subdocid)],
    ["Size", t("factSize"), documents("bytes", { size: formatBytes(document.size, locale), bytes: document.size })],
    [
      "MD5",
      t("factMd5"),
      document.md5Hex ? (
        <>
          <CodeValue value={document.md5Hex} data-testid="md5-hex" />
          {checksumNote}
        </>
      ) : document.storageChecked === "blocks" ? (
        t("md5BlocksOnly")
      ) : (
        t("md5NotComputed")
      ),
    ],
    ...(document.replacedItemId
      ? [["Created first", t("factCreatedFirst"), <ReplacedItem key="replaced" itemId={document.replacedItemId} />] satisfies [string, string, ReactNode]]
      : []),
  ];
  return (
    <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[7rem_minmax(0,1fr)]" data-testid="document-facts">
      {rows.map(([field, label, value]) => (
        <div key={field} className="contents">
          <dt className="font-medium text-slate-500">{label}</dt>
          <dd className="min-w-0 font-mono text-xs leading-5 text-slate-900 sm:text-sm" data-field={field}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The item a renewal left behind: the service holds it without a file, and the person should know its id. */
export function ReplacedItem({ itemId }: { itemId: string }) {
  const t = useTranslations("upload");
  return (
    <>
      <CodeValue value={itemId} />
      <span className="block font-sans text-xs text-slate-500">{t("replacedNote")}</span>
    </>
  );
}
