"use client";
import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { ApiError } from "@/lib/api-client";
import { endAllSessions, endSession, fetchSessions } from "@/lib/queries/sessions";
import type { SessionSummary } from "@/lib/queries/session-summary";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Skeleton } from "@/components/ui/skeleton";
import { SignInAgainButton } from "@/components/sign-in-again-button";
import { LocalTime } from "@/components/local-time";
import { useTranslations } from "next-intl";
import { useErrorText } from "@/lib/i18n/error-text";
import { deviceName } from "@/lib/i18n/device-name";

type SessionsTranslator = ReturnType<typeof useTranslations<"sessions">>;

/**
 * A session's times as the server rendered them (LocalTime in a Server Component), by session id: hydration then
 * builds no `Intl` formatter (docs/page-weight.md). A list fetched by the browser formats its own.
 */
export type RenderedSessionTimes = Record<string, { signedIn: ReactNode; lastSeen: ReactNode }>;

/** What went wrong last: loading the list (which can be tried again as it is), or ending a session (titled). */
type Problem = { error: Error; title?: string };

type Confirming = { kind: "one"; session: SessionSummary } | { kind: "all" } | null;

/**
 * Where the browser goes once its own session has ended: the landing page, signed out. A full load, not a client
 * navigation: the root layout's header (the name, Sign out) must render again, signed out.
 */
function leave() {
  // eslint-disable-next-line @next/next/no-location-assign-relative-destination -- a full load is the point (above)
  window.location.assign("/");
}

/**
 * The user's signed-in devices, each of which can be signed out, and "Sign out everywhere". The list comes with
 * the page (a reload shows newer sessions); only when the server could not read it does the panel ask
 * GET /api/sessions.
 */
export function SessionsPanel({ initial, renderedTimes }: { initial: SessionSummary[] | null; renderedTimes?: RenderedSessionTimes }) {
  const [sessions, setSessions] = useState(initial);
  const [loading, setLoading] = useState(initial === null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState("");
  const noticeRef = useRef<HTMLParagraphElement>(null);
  const t = useTranslations("sessions");

  // Loading is already on when it runs: from the first render (no list), or set by Try again.
  const load = useCallback(async () => {
    try {
      setSessions(await fetchSessions());
      setProblem(null);
    } catch (error) {
      setProblem({ error: error as Error });
    } finally {
      setLoading(false);
    }
  }, []);

  // Without a list from the server's render (the store did not answer then), ask once mounted.
  const [fetchOnMount] = useState(initial === null);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- state is set when GET /api/sessions answers, not synchronously
    if (fetchOnMount) void load();
  }, [fetchOnMount, load]);

  const dropFromList = (ended: SessionSummary, message: string) => {
    setSessions((list) => list?.filter((s) => s.id !== ended.id) ?? null);
    setNotice(message);
    // The row and its button are gone: focus goes to what happened, not to the top of the page.
    requestAnimationFrame(() => noticeRef.current?.focus());
  };

  async function confirm() {
    if (!confirming) return;
    setBusy(true);
    setProblem(null);
    try {
      if (confirming.kind === "all") {
        await endAllSessions();
        return leave();
      }
      const { endedCurrent } = await endSession(confirming.session.id);
      if (endedCurrent) return leave();
      dropFromList(confirming.session, t("signedOutDevice", { device: deviceName(t, confirming.session) }));
    } catch (error) {
      if (confirming.kind === "one" && error instanceof ApiError && error.code === "SESSION_NOT_FOUND") {
        dropFromList(confirming.session, t("alreadySignedOut", { device: deviceName(t, confirming.session) }));
      } else {
        const title = confirming.kind === "all" ? t("everywhereFailed") : t("deviceFailed", { device: deviceName(t, confirming.session) });
        setProblem({ error: error as Error, title });
      }
    }
    setBusy(false);
    setConfirming(null);
  }

  const others = sessions?.filter((s) => !s.current) ?? [];

  return (
    <Card data-testid="sessions-panel" aria-busy={loading}>
      <CardHeader>
        <CardTitle>{t("title")}</CardTitle>
        <CardDescription>{t("description")}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {problem ? <SessionsProblem problem={problem} onReload={() => {
              setLoading(true);
              void load();
            }} /> : null}
        {sessions === null ? (
          loading ? <ListSkeleton /> : null
        ) : (
          <ul aria-label={t("listLabel")} className="flex flex-col divide-y divide-slate-100">
            {sessions.map((session) => (
              <SessionRow key={session.id} session={session} times={renderedTimes?.[session.id]} onEnd={() => setConfirming({ kind: "one", session })} disabled={busy} />
            ))}
          </ul>
        )}
        <p ref={noticeRef} tabIndex={-1} role="status" className="text-sm text-emerald-700 empty:hidden focus:outline-none">
          {notice}
        </p>
        {sessions !== null && others.length === 0 ? (
          <p className="text-sm text-slate-600" data-testid="only-this-device">
            {t("onlyThisDevice")}
          </p>
        ) : null}
      </CardContent>
      {sessions !== null ? (
        <div className="flex flex-col gap-3 border-t border-slate-100 px-5 py-4 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-slate-600">{t("everywhereHint")}</p>
          <Button variant="destructive" size="sm" className="shrink-0" onClick={() => setConfirming({ kind: "all" })} disabled={busy}>
            {t("signOutEverywhere")}
          </Button>
        </div>
      ) : null}
      <ConfirmDialog
        open={confirming !== null}
        busy={busy}
        onConfirm={() => void confirm()}
        onDismiss={() => setConfirming(null)}
        {...confirmText(t, confirming, sessions?.length ?? 0)}
      />
    </Card>
  );
}

function confirmText(t: SessionsTranslator, confirming: Confirming, count: number) {
  if (confirming?.kind === "all") {
    return {
      title: t("confirmAllTitle"),
      confirmLabel: t("signOutEverywhere"),
      busyLabel: t("confirmAllBusy"),
      children: <p>{t("confirmAllBody", { count })}</p>,
    };
  }
  const session = confirming?.session;
  if (session?.current) {
    return {
      title: t("confirmCurrentTitle"),
      confirmLabel: t("signOut"),
      busyLabel: t("confirmBusy"),
      children: <p>{t("confirmCurrentBody")}</p>,
    };
  }
  return {
    title: session ? t("confirmOtherTitle", { device: deviceName(t, session) }) : "",
    confirmLabel: t("signOut"),
    busyLabel: t("confirmBusy"),
    children: <p>{t("confirmOtherBody")}</p>,
  };
}

function SessionRow({ session, times, onEnd, disabled }: { session: SessionSummary; times?: RenderedSessionTimes[string]; onEnd: () => void; disabled: boolean }) {
  const t = useTranslations("sessions");
  return (
    <li className="flex flex-col gap-3 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between" data-testid="session-row">
      <div className="flex min-w-0 flex-col gap-1">
        <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
          {deviceName(t, session)}
          {session.current ? (
            <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700">{t("thisDevice")}</span>
          ) : null}
        </p>
        <p className="text-sm text-slate-600">
          {t.rich("signedIn", { time: () => times?.signedIn ?? <LocalTime iso={session.signedInAt} style="absolute" /> })}
          <span aria-hidden="true"> · </span>
          <span className="sr-only">, </span>
          {session.current ? t("activeNow") : t.rich("lastActive", { time: () => times?.lastSeen ?? <LocalTime iso={session.lastSeenAt} style="relative" /> })}
        </p>
      </div>
      <Button
        variant="secondary"
        size="sm"
        className="self-start sm:self-center"
        onClick={onEnd}
        disabled={disabled}
        aria-label={session.current ? t("signOutThisDevice") : t("signOutDevice", { device: deviceName(t, session) })}
      >
        {t("signOut")}
      </Button>
    </li>
  );
}

function ListSkeleton() {
  const t = useTranslations("sessions");
  return (
    <div className="flex flex-col gap-3" data-testid="sessions-loading">
      <span className="sr-only" role="status">
        {t("loading")}
      </span>
      {[0, 1].map((i) => (
        <div key={i} className="flex flex-col gap-2">
          <Skeleton className="h-4 w-48" />
          <Skeleton className="h-3 w-72 max-w-full" />
        </div>
      ))}
    </div>
  );
}

function SessionsProblem({ problem: { error, title }, onReload }: { problem: Problem; onReload: () => void }) {
  const t = useTranslations("sessions");
  const common = useTranslations("common");
  const errorText = useErrorText();
  if (error instanceof ApiError && error.needsSignIn) {
    return (
      <Alert tone="warning" title={t("endedTitle")} action={<SignInAgainButton />}>
        {errorText(error)}
      </Alert>
    );
  }
  const retryable = !(error instanceof ApiError) || error.retryable;
  return (
    <Alert
      tone="error"
      title={title ?? t("loadFailed")}
      action={
        !title && retryable ? (
          <Button size="sm" variant="secondary" onClick={onReload}>
            {common("tryAgain")}
          </Button>
        ) : undefined
      }
    >
      {errorText(error)}
      {error instanceof ApiError && error.requestId ? <> {common("reference", { requestId: error.requestId })}</> : null}
    </Alert>
  );
}
