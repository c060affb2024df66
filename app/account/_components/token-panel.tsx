import type { TokenInfo } from "@/auth";
import { useTranslations } from "next-intl";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { cn } from "@/lib/utils";
import { TokenExpiry } from "@/app/account/_components/token-expiry";

/** Facts about the session's tokens — never the tokens themselves. */
export function TokenPanel({ tokenInfo }: { tokenInfo: TokenInfo }) {
  const t = useTranslations("token");
  const notGranted = tokenInfo.requestedScopes.filter((s) => !tokenInfo.grantedScopes.includes(s));
  return (
    <Card data-testid="token-panel" className="self-start">
      <CardHeader>
        <CardTitle>{t("title")}</CardTitle>
        <CardDescription>{t("description")}</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="flex flex-col gap-3 text-sm">
          <div>
            <dt className="font-medium text-slate-500">{t("grantedScopes")}</dt>
            <dd className="mt-1 flex flex-wrap gap-1.5" data-testid="granted-scopes">
              {tokenInfo.grantedScopes.map((scope) => (
                <span key={scope} className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700">
                  {scope}
                </span>
              ))}
            </dd>
            {notGranted.length > 0 ? (
              <p className="mt-1 text-xs text-slate-500">{t("notGranted", { scopes: notGranted.join(", ") })}</p>
            ) : null}
          </div>
          <div>
            <dt className="font-medium text-slate-500">{t("refreshToken")}</dt>
            <dd
              data-testid="has-refresh-token"
              className={cn("mt-1", tokenInfo.hasRefreshToken ? "text-emerald-700" : "text-amber-700")}
            >
              {tokenInfo.hasRefreshToken ? t("refreshHeld") : t("refreshNone")}
            </dd>
          </div>
          <div>
            <dt className="font-medium text-slate-500">{t("expires")}</dt>
            <dd className="mt-1" data-testid="access-token-expiry">
              <TokenExpiry expiresAt={tokenInfo.accessTokenExpiresAt} />
            </dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}
