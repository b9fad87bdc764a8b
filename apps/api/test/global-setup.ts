import { createScratchDatabase } from './scratch-database.ts';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabaseUrl: string | undefined;
  }
}

/**
 * With DATABASE_URL set, the suite runs on PostgreSQL: a fresh database is made for this
 * run (and dropped after), so runs never see each other's data.
 */
export default async function setup(project: TestProject) {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    project.provide('testDatabaseUrl', undefined);
    return;
  }
  const database = await createScratchDatabase(adminUrl, 'kestrel_test');
  project.provide('testDatabaseUrl', database.url);
  return database.drop;
}
