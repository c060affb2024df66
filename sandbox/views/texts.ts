import type { PageLanguage } from "./language";

/** A name in bold; `escaped` has been through escapeHtml already. */
const strong = (escaped: string) => `<strong>${escaped}</strong>`;

/**
 * Every text of the sandbox's pages, in each language they speak. Functions take values already escaped and
 * return HTML. The English field labels and buttons (Email, Password, Sign in, Allow, Deny) are what e2e specs and
 * the smoke command look for: keep them.
 */
const en = {
  siteName: "e-signature sandbox",
  badge: "Sandbox",
  theApplication: "the application",
  signIn: {
    title: "Sign in",
    heading: "Sign in",
    continueTo: (client: string) => `to continue to ${strong(client)}`,
    signedInAs: (name: string) => `You are signed in as ${strong(name)}. Sign in again, or as someone else.`,
    email: "Email",
    password: "Password",
    submit: "Sign in",
    wrongCredentials: "Wrong email or password. Please try again.",
  },
  consent: {
    title: "Allow access",
    heading: "Allow access?",
    asks: (user: string, client: string) => `Signed in as ${strong(user)}. ${strong(client)} asks to:`,
    unknownUser: "unknown user",
    deny: "Deny",
    allow: "Allow",
    scopes: {
      openid: "Confirm your identity",
      profile: "See your name",
      email: "See your email address",
      "service.api": "Create documents and read your account on your behalf",
      "service.app": "Use the e-signature features of the application",
      offline_access: "Stay connected when you are not using the application",
    } as Record<string, string>,
  },
  signOut: {
    title: "Sign out",
    heading: "Sign out of the e-signature service?",
    signedInAs: (name: string) => `You are signed in as ${strong(name)}.`,
    signedOutOf: (client: string) => `${strong(client)} signed you out of the application.`,
    stay: "No, stay signed in",
    confirm: "Yes, sign me out",
    doneTitle: "Signed out",
    doneBody: "You are signed out of the e-signature service. You can close this page.",
  },
  error: {
    title: "Sign-in error",
    heading: "Something went wrong",
    code: "Error code:",
    expired: "This sign-in link has expired. Please start again from the application.",
    tooLarge: "The form was too large.",
    methodNotAllowed: "Method not allowed.",
    requestFailed: "The request could not be processed.",
  },
};

const ja: typeof en = {
  siteName: "電子署名サンドボックス",
  badge: "サンドボックス",
  theApplication: "アプリケーション",
  signIn: {
    title: "ログイン",
    heading: "ログイン",
    continueTo: (client) => `${strong(client)} を利用するにはログインしてください`,
    signedInAs: (name) => `${strong(name)} としてログインしています。もう一度ログインするか、別のアカウントでログインしてください。`,
    email: "メールアドレス",
    password: "パスワード",
    submit: "ログイン",
    wrongCredentials: "メールアドレスまたはパスワードが正しくありません。もう一度お試しください。",
  },
  consent: {
    title: "アクセスの許可",
    heading: "アクセスを許可しますか？",
    asks: (user, client) => `${strong(user)} としてログインしています。${strong(client)} が次の許可を求めています。`,
    unknownUser: "不明なユーザー",
    deny: "拒否",
    allow: "許可",
    scopes: {
      openid: "本人であることの確認",
      profile: "名前の参照",
      email: "メールアドレスの参照",
      "service.api": "あなたに代わって文書を作成し、アカウント情報を読み取る",
      "service.app": "アプリケーションの電子署名機能の利用",
      offline_access: "アプリケーションを使っていない間も接続を保つ",
    },
  },
  signOut: {
    title: "ログアウト",
    heading: "電子署名サービスからもログアウトしますか？",
    signedInAs: (name) => `${strong(name)} としてログインしています。`,
    signedOutOf: (client) => `${strong(client)} からはログアウトしました。`,
    stay: "いいえ、ログインしたままにする",
    confirm: "はい、ログアウトする",
    doneTitle: "ログアウトしました",
    doneBody: "電子署名サービスからログアウトしました。このページは閉じてかまいません。",
  },
  error: {
    title: "ログインエラー",
    heading: "問題が発生しました",
    code: "エラーコード:",
    expired: "このログイン用リンクは有効期限が切れています。アプリケーションからもう一度始めてください。",
    tooLarge: "フォームの内容が大きすぎます。",
    methodNotAllowed: "この操作はできません。",
    requestFailed: "リクエストを処理できませんでした。",
  },
};

export type PageTexts = typeof en;
export type ErrorMessage = Exclude<keyof PageTexts["error"], "title" | "heading" | "code">;

export const pageTexts: Record<PageLanguage, PageTexts> = { en, ja };
