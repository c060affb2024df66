import { timingSafeEqual, createHash } from "node:crypto";

export interface Customer {
  id: string;
  name: string;
  plan: "free" | "business" | "enterprise";
  country: string;
  createdAt: string;
}

export interface User {
  id: string;
  email: string;
  password: string;
  name: string;
  role: "owner" | "admin" | "member";
  locale: string;
  /** Absent for users who signed up but never joined a customer account (getuserinfo → 400). */
  customer?: Customer;
}

const users: readonly User[] = [
  {
    id: "6f1c2b0e-4d0a-4a8e-9a51-1c7e3f0a2b11",
    email: "alice@example.com",
    password: "alice-password",
    name: "Alice Example",
    role: "owner",
    locale: "en-GB",
    customer: {
      id: "2d9b7c41-83a5-4f0e-b6a2-5e8f1d3c7a90",
      name: "Example Trading Ltd",
      plan: "business",
      country: "GB",
      createdAt: "2024-03-14T09:26:53.000Z",
    },
  },
  {
    id: "a3e8d5f2-7b19-4c6d-8e0a-9f2b4c1d6e37",
    email: "bob@example.com",
    password: "bob-password",
    name: "Bob Example",
    role: "member",
    locale: "en-US",
  },
];

export function listUsers(): readonly User[] {
  return users;
}

export function findUserById(id: string): User | undefined {
  return users.find((user) => user.id === id);
}

// Hashing first gives equal-length buffers, so the comparison time does not reveal the password length.
function sameSecret(a: string, b: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}

export function verifyCredentials(email: string, password: string): User | undefined {
  const user = users.find((candidate) => candidate.email === email.trim().toLowerCase());
  return user && sameSecret(user.password, password) ? user : undefined;
}
