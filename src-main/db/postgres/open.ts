// Opens the shared PostgreSQL database: migrated first (asynchronously, serialised across hosts), then reached
// through the synchronous connection the repositories use.
import { DatabaseOpenError } from '../connection';
import { migratePostgres } from '../migrations/postgres';
import { PostgresDb, redactUrl } from './pg-db';

export async function openPostgres(url: string): Promise<PostgresDb> {
  try {
    await migratePostgres(url);
  } catch (error) {
    throw new DatabaseOpenError(redactUrl(url), error);
  }
  return new PostgresDb(url);
}
