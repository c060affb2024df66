import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Link } from "@/components/ui/link";
import { buttonClasses } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("erasure");
  return { title: t("doneMetaTitle") };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** A count from the query: a whole number up to ten million, else null (the page then leaves that line out). */
function countOf(value: string | string[] | undefined): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  return text !== undefined && /^\d{1,8}$/.test(text) ? Number(text) : null;
}

/**
 * Where "Delete my records" ends, signed out: what was erased, in the visitor's language, from the counts the
 * erasure answered (carried in the query: numbers only, never a name or an email). Reads nothing and writes nothing.
 */
export default async function ErasedPage({ searchParams }: Props) {
  const [query, t] = await Promise.all([searchParams, getTranslations("erasure")]);
  const documents = countOf(query.documents);
  const events = countOf(query.events);
  const profile = query.profile === "1";
  const nothing = documents === 0 && events === 0 && !profile;
  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-6 py-6">
      <h1 className="text-2xl font-bold tracking-tight">{t("doneTitle")}</h1>
      <Card>
        <CardContent className="flex flex-col gap-4 pt-5 text-sm text-slate-700">
          {nothing ? (
            <p data-testid="erased-nothing">{t("doneNothing")}</p>
          ) : (
            <>
              <p>{t("doneIntro")}</p>
              <ul className="list-disc pl-5" data-testid="erased-list">
                {documents !== null ? <li>{t("doneDocuments", { count: documents })}</li> : null}
                {events !== null ? <li>{t("doneEvents", { count: events })}</li> : null}
                <li>{profile ? t("doneProfile") : t("doneNoProfile")}</li>
                <li>{t("doneBrowser")}</li>
                <li>{t("doneSessions")}</li>
              </ul>
            </>
          )}
          <div>
            <h2 className="font-medium text-slate-900">{t("doneStaysTitle")}</h2>
            <p>{t("doneStays")}</p>
          </div>
          <p>{t("doneAgain")}</p>
        </CardContent>
      </Card>
      <div>
        <Link href="/" className={buttonClasses("secondary")}>
          {t("home")}
        </Link>
      </div>
    </div>
  );
}
