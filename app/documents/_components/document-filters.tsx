import { Link } from "@/components/ui/link";
import { useTranslations } from "next-intl";
import { DOCUMENT_STATUSES } from "@/lib/db/schema";
import type { DocumentListParams } from "@/lib/documents/document-list-params";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";

type Props = { params: DocumentListParams; doctypeSuggestions: string[] };

const selectClasses =
  "h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm shadow-sm focus-visible:border-brand-600";

/**
 * Search by name and filter by type and status: a plain GET form, so it works before (or without) JavaScript and
 * every result has its own URL. A new search starts from the first page.
 */
export function DocumentFilters({ params, doctypeSuggestions }: Props) {
  const filtered = Boolean(params.q || params.doctype || params.status);
  const t = useTranslations("documentList");
  const status = useTranslations("documentStatus");
  return (
    <form method="get" action="/documents#documents-list" role="search" aria-label={t("searchLabel")} className="grid grid-cols-2 items-end gap-3 sm:grid-cols-[1fr_12rem_12rem_auto]">
      <div className="col-span-2 flex flex-col gap-1.5 sm:col-span-1">
        <Label htmlFor="documents-q">{t("search")}</Label>
        <Input id="documents-q" name="q" type="search" defaultValue={params.q} maxLength={200} autoComplete="off" placeholder={t("searchPlaceholder")} />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="documents-doctype">{t("type")}</Label>
        <Input id="documents-doctype" name="doctype" defaultValue={params.doctype} maxLength={100} list="documents-doctype-options" autoComplete="off" />
        <datalist id="documents-doctype-options">
          {doctypeSuggestions.map((doctype) => (
            <option key={doctype} value={doctype} />
          ))}
        </datalist>
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="documents-status">{t("status")}</Label>
        <select id="documents-status" name="status" defaultValue={params.status} className={selectClasses}>
          <option value="">{t("anyStatus")}</option>
          {DOCUMENT_STATUSES.map((value) => (
            <option key={value} value={value}>
              {status(value)}
            </option>
          ))}
        </select>
      </div>
      <div className="col-span-2 flex gap-2 sm:col-span-1">
        <Button type="submit" variant="secondary">
          {t("searchButton")}
        </Button>
        {filtered ? (
          <Link href="/documents#documents-list" className="inline-flex h-10 items-center rounded-md px-3 text-sm font-medium text-slate-700 hover:bg-slate-100">
            {t("clear")}
          </Link>
        ) : null}
      </div>
    </form>
  );
}
