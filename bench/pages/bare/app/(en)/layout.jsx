import "../globals.css";

export const metadata = { title: "Bare page", description: "The bench's baseline: Next.js, React and Tailwind alone." };

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
