import type { Metadata } from "next";
import { NextIntlClientProvider } from "next-intl";
import { getTranslations } from "next-intl/server";
import { auth } from "@/auth";
import { SignInPrompt } from "@/components/sign-in-prompt";
import { AccountView } from "@/app/account/_components/account-view";
import { TokenPanel } from "@/app/account/_components/token-panel";
import { RecordView } from "@/app/account/_components/record-view";
import { SessionsPanel, type RenderedSessionTimes } from "@/app/account/_components/sessions-panel";
import { EraseRecordsPanel } from "@/app/account/_components/erase-records-panel";
import { erasureRecords } from "@/lib/erasure/user-erasure";

/** How long the page waits for the count of the user's documents: a slow database must not hold the account page. */
const DOCUMENT_COUNT_WAIT_MS = 1_000;

/** The user's document count, or null when the database fails or takes longer than `waitMs`. */
function documentCountWithin(userKey: string, waitMs: number): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), waitMs);
  });
  const counted = erasureRecords.countUserRecords(userKey).then(
    (counts) => counts.documents,
    () => null,
  );
  return Promise.race([counted, late]).finally(() => clearTimeout(timer));
}
import { LocalTime } from "@/components/local-time";
import { fetchAccountForPage } from "@/lib/ssr/account-for-page";
import { fetchSessionsForPage } from "@/lib/ssr/sessions-for-page";
import { clientMessages } from "@/lib/i18n/client-messages";

/** What the account page's client components read: the account card, the session list, the token countdown, "Delete my records". */
const CLIENT_NAMESPACES = ["common", "errors", "account", "record", "sessions", "token", "erasure"] as const;

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("account");
  return { title: t("metaTitle") };
}

export default async function AccountPage() {
  const [session, t] = await Promise.all([auth(), getTranslations("account")]);
  if (!session) {
    return <SignInPrompt title={t("signInTitle")} body={t("signInBody")} callbackUrl="/account" />;
  }
  const [account, sessions, messages, documentCount] = await Promise.all([
    fetchAccountForPage(),
    fetchSessionsForPage(),
    clientMessages(CLIENT_NAMESPACES),
    // For "N documents" in the erasure's confirmation; without the database the confirmation says it without a number.
    session.userKey ? documentCountWithin(session.userKey, DOCUMENT_COUNT_WAIT_MS) : null,
  ]);
  // Times and the record's dates are formatted here, on the server: the browser's hydration builds no Intl formatter.
  const sessionTimes: RenderedSessionTimes | undefined = sessions
    ? Object.fromEntries(
        sessions.map((s) => [s.id, { signedIn: <LocalTime iso={s.signedInAt} style="absolute" />, lastSeen: <LocalTime iso={s.lastSeenAt} style="relative" /> }]),
      )
    : undefined;
  return (
    <NextIntlClientProvider messages={messages}>
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">{t("title")}</h1>
        <p className="text-sm text-slate-600">{t("intro")}</p>
      </div>
      <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
        {/* Keyed by the user: another person signing in gets a new, empty query cache, never the last one's record. */}
        <AccountView key={session.userKey ?? ""} initial={account} renderedRecord={account.record ? <RecordView record={account.record} /> : undefined} />
        <TokenPanel tokenInfo={session.tokenInfo} />
      </div>
      <SessionsPanel initial={sessions} renderedTimes={sessionTimes} />
      {session.userKey ? <EraseRecordsPanel userKey={session.userKey} documentCount={documentCount} /> : null}
    </div>
    </NextIntlClientProvider>
  );
}
