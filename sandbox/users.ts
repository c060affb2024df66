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
  /**
   * Set for users whose id_token carries only `sub`, as some identity servers send it: no email, no
   * name. They sign in with `email` all the same; it is their login name at the service.
   */
  subjectOnly?: true;
}

/** The sandbox's operator: the demo, `npm run dev` and the e2e apps name him in OPERATOR_EMAILS (docs/operators.md). */
export const SANDBOX_OPERATOR_EMAIL = "oscar@example.com";

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
  // Two subject-only users sharing one customer account: what the app keeps per user must not be keyed by email or name.
  {
    id: "c41f7a2e-5d83-4b90-a6e1-2f8c9d0b7e54",
    email: "carol@example.com",
    password: "carol-password",
    name: "Carol Example",
    role: "member",
    locale: "en-GB",
    subjectOnly: true,
    customer: {
      id: "8e2a6c1d-47b5-4f93-9a0e-3d5b7c9f1a26",
      name: "Subject Only Ltd",
      plan: "business",
      country: "GB",
      createdAt: "2025-01-20T08:00:00.000Z",
    },
  },
  {
    id: "d52e8b3f-6e94-4ca1-b7f2-3a9d0e1c8f65",
    email: "dave@example.com",
    password: "dave-password",
    name: "Dave Example",
    role: "member",
    locale: "en-GB",
    subjectOnly: true,
    customer: {
      id: "8e2a6c1d-47b5-4f93-9a0e-3d5b7c9f1a26",
      name: "Subject Only Ltd",
      plan: "business",
      country: "GB",
      createdAt: "2025-01-20T08:00:00.000Z",
    },
  },
  // An operator is a user of the service like any other: the app decides who is one (OPERATOR_EMAILS).
  {
    id: "e63f9c4a-7fa5-4db2-8c03-4b0e1f2d9a76",
    email: SANDBOX_OPERATOR_EMAIL,
    password: "oscar-password",
    name: "Oscar Operator",
    role: "admin",
    locale: "en-GB",
    customer: {
      id: "2d9b7c41-83a5-4f0e-b6a2-5e8f1d3c7a90",
      name: "Example Trading Ltd",
      plan: "business",
      country: "GB",
      createdAt: "2024-03-14T09:26:53.000Z",
    },
  },
];

/** The id_token claims of `user`: the subject, and email and name unless the user is subject-only. */
export function idTokenClaims(user: User): Record<string, unknown> {
  if (user.subjectOnly) return { sub: user.id };
  return { sub: user.id, email: user.email, email_verified: true, name: user.name };
}

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
