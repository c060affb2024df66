import { CountButton } from "../../count-button";

export default function Page() {
  return (
    <main className="mx-auto flex max-w-3xl flex-col items-start gap-4 px-4 py-16">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">素の Next.js ページ</h1>
      <p className="text-lg text-slate-600">
        見出しがひとつ、段落がひとつ、クライアントのボタンがひとつ、Tailwind の基本スタイル。アプリのコードを何も足す前に、Next.js と React
        だけでかかるものです。
      </p>
      <CountButton />
    </main>
  );
}
