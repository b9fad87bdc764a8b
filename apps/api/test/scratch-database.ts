import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A PostgreSQL database of its own for a test run, a test file or a bench (so runs never see
 * each other's data), made on the server `adminUrl` names and dropped by `drop()`.
 */
export interface ScratchDatabase {
  name: string;
  /** `adminUrl` with this database's name. */
  url: string;
  /** Drops it, ending any connection left open (a crashed run's). */
  drop(): Promise<void>;
}

/** The URL of database `name` on the server `adminUrl` names. */
export function databaseUrlOf(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onAdmin<T>(adminUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/** Makes `<prefix>_<random>` (optionally a copy of `template`). */
export async function createScratchDatabase(adminUrl: string, prefix: string, template?: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await onAdmin(adminUrl, (admin) => admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`));
  return {
    name,
    url: databaseUrlOf(adminUrl, name),
    drop: () => onAdmin(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
