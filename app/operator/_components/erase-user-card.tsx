import { NextIntlClientProvider } from "next-intl";
import { getLocale, getMessages, getTranslations } from "next-intl/server";
import { Link } from "@/components/ui/link";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ERASE_REASON_MAX } from "@/lib/erasure/erasure-input";
import type { Operator } from "@/lib/operators/types";
import { EraseUserForm } from "@/app/operator/_components/erase-user-form";

/**
 * "Erase this user's records" on an operator's user page (lib/erasure/erase-by-operator.ts). An operator's own page
 * says to use their account page instead, which also signs them out everywhere. The form's messages only are sent
 * to the browser.
 */
export async function EraseUserCard({ userKey, operator }: { userKey: string; operator: Operator }) {
  const [t, messages, locale] = await Promise.all([getTranslations("operator.erase"), getMessages(), getLocale()]);
  return (
    <Card aria-labelledby="erase-user-title" data-testid="operator-erase-user">
      <CardHeader>
        <CardTitle id="erase-user-title">{t("title")}</CardTitle>
        <CardDescription>{t("description")}</CardDescription>
      </CardHeader>
      <CardContent>
        {userKey === operator.userKey ? (
          <p className="text-sm text-slate-700" data-testid="operator-erase-self">
            {t.rich("self", {
              link: (chunks) => (
                <Link href="/account" className="text-brand-700 underline underline-offset-2">
                  {chunks}
                </Link>
              ),
            })}
          </p>
        ) : (
          <NextIntlClientProvider locale={locale} messages={{ common: messages.common, errors: messages.errors, operator: { erase: messages.operator.erase } }}>
            <EraseUserForm userKey={userKey} reasonMax={ERASE_REASON_MAX} />
          </NextIntlClientProvider>
        )}
      </CardContent>
    </Card>
  );
}
