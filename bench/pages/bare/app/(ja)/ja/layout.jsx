import "../../globals.css";

export const metadata = { title: "素のページ", description: "ベンチマークの基準: Next.js、React、Tailwind だけのページ。" };

/** The bare page in Japanese: the app's Japanese pages are measured against it (the same first use of a CJK font). */
export default function RootLayout({ children }) {
  return (
    <html lang="ja">
      <body>{children}</body>
    </html>
  );
}
