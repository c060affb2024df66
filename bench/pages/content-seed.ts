/**
 * The records the pages are measured with, the same on every run: each list one full page, as a user and an operator
 * with some history see it. Written into the run's own embedded database before the app starts on it, so that a run
 * never measures what the runs before it left behind (a kept database had grown the stuck list from 243 to 499
 * elements over a day of runs).
 *
 * - alice and oscar: 19 uploaded documents each; the bench's sign-in adds one more through the app, so `/documents`
 *   and oscar's page for the operator show their full page of 20.
 * - 50 documents of 50 other users, created two days ago and never uploaded: the stuck list's full page (20) and more
 *   to follow.
 * - 50 entries in the operator access log, oscar's: the log's full page (20) and more; the run's own operator page
 *   loads add to it.
 */
import { sql } from "drizzle-orm";
import { openDatabase } from "@/lib/db/client";
import { userKeyFor } from "@/lib/auth/user-key";
import { users } from "../../e2e/fixtures/users";

const OWN_DOCUMENTS = 19;
const STUCK_DOCUMENTS = 50;
const ACCESS_ENTRIES = 50;

/** Fills the embedded database in `dir` (migrating it first, as the app's own open does). `issuer`: the sandbox's auth URL. */
export async function seedPageContent(dir: string, issuer: string): Promise<void> {
  const alice = userKeyFor(issuer, users.alice.sub);
  const oscar = userKeyFor(issuer, users.oscar.sub);
  const database = await openDatabase({ dir });
  try {
    for (const statement of [
      sql`
        insert into documents (user_key, item_id, file_id, subdocid, container, name, doctype, size, md5, status, created_at, updated_at)
        select u.key, md5(u.key || 'item' || g)::uuid::text, md5(u.key || 'file' || g)::uuid::text, 0, 'documents',
               (array['Contract','Invoice','Lease','Offer','Policy'])[1 + g % 5] || ' ' || g || '.pdf',
               (array['contract','invoice','agreement','offer','policy'])[1 + g % 5], 200000 + g * 1000, md5('x' || g), 'uploaded',
               now() - g * interval '1 day', now() - g * interval '1 day' + interval '4 seconds'
        from unnest(array[${alice}, ${oscar}]) u(key), generate_series(1, ${OWN_DOCUMENTS}) g`,
      sql`
        insert into documents (user_key, item_id, file_id, subdocid, container, name, doctype, size, md5, status, created_at, updated_at)
        select 'bench-user-' || g, md5('stuck' || g)::uuid::text, md5('stuck-file' || g)::uuid::text, 0, 'documents',
               'Offer ' || g || '.pdf', 'offer', 100000 + g, null, 'created',
               now() - interval '2 days' - g * interval '1 minute', now() - interval '2 days' - g * interval '1 minute'
        from generate_series(1, ${STUCK_DOCUMENTS}) g`,
      sql`
        insert into users (user_key, email, display_name, first_seen_at, last_seen_at)
        select 'bench-user-' || g, 'user' || g || '@example.com', null, now() - interval '3 days', now() - interval '2 days'
        from generate_series(1, ${STUCK_DOCUMENTS}) g`,
      sql`
        insert into document_events (user_key, item_id, event_id, type, at, request_id, device, details)
        select user_key, item_id, md5(t || item_id)::uuid, t, created_at + (i - 1) * interval '2 seconds', 'req-' || left(item_id, 8),
               'Chrome 131 on Linux',
               case t when 'uploaded' then jsonb_build_object('mode', 'single', 'bytes', size, 'md5', md5, 'durationMs', 812) else '{}'::jsonb end
        from documents, unnest(array['created', 'upload_started', 'uploaded']) with ordinality e(t, i)
        where t = 'created' or status = 'uploaded'`,
      sql`
        insert into operator_access_log (at, operator_user_key, operator_email, action, subject_user_key, item_id, detail)
        select now() - g * interval '1 minute', ${oscar}, ${users.oscar.email},
               (array['view_overview', 'view_stuck', 'search', 'view_user', 'view_document'])[1 + g % 5],
               case when g % 5 in (3, 4) then 'bench-user-' || g end,
               case when g % 5 = 4 then md5('stuck' || g)::uuid::text end,
               case when g % 5 = 2 then 'offer' end
        from generate_series(1, ${ACCESS_ENTRIES}) g`,
    ]) {
      await database.db.execute(statement);
    }
  } finally {
    await database.close();
  }
}
