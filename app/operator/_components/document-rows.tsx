import { Link } from "@/components/ui/link";
import { useTranslations } from "next-intl";
import type { OperatorDocumentSummary } from "@/lib/operators/types";
import { LocalTime } from "@/components/local-time";
import { StatusBadge } from "@/app/documents/_components/document-status";
import { operatorDocumentHref, operatorUserHref } from "@/app/operator/_components/links";

/**
 * Documents across users, as the user's own list shows them (name, type, created, status), with whose they are unless
 * the page is already about one user.
 */
export function OperatorDocumentRows({ documents, showUser, label }: { documents: OperatorDocumentSummary[]; showUser: boolean; label: string }) {
  const t = useTranslations("operator");
  const docs = useTranslations("documents");
  return (
    <ul className="flex flex-col divide-y divide-slate-100" aria-label={label} data-testid="operator-document-rows">
      {documents.map((doc) => (
        <li key={`${doc.userKey}/${doc.itemId}`} className="flex flex-col gap-1 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between sm:gap-4" data-testid="operator-document-row" data-item-id={doc.itemId}>
          <div className="flex min-w-0 flex-col gap-0.5">
            <Link href={operatorDocumentHref(doc.userKey, doc.itemId)} className="break-words font-medium text-brand-700 underline-offset-2 hover:underline" translate={doc.name ? "no" : undefined}>
              {doc.name || docs("noName")}
            </Link>
            <span className="text-xs text-slate-600">
              {showUser ? (
                <>
                  <Link href={operatorUserHref(doc.userKey)} className="break-all text-slate-700 underline underline-offset-2" translate="no">
                    {doc.email ?? t("noEmail")}
                  </Link>
                  {" · "}
                </>
              ) : null}
              {doc.doctype ? <span translate="no">{doc.doctype}</span> : docs("noType")} · <LocalTime iso={doc.createdAt} style="absolute" />
              {doc.removedAt ? <> · {t("removedByUser")}</> : null}
            </span>
          </div>
          <StatusBadge status={doc.status} />
        </li>
      ))}
    </ul>
  );
}
