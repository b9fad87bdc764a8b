import path from 'node:path';
import { openDatabase, withoutStatementTimeouts, type DatabaseHandle, type DatabaseTimeouts } from './database.ts';
import type { ConnectionDefaults } from './connection-settings.ts';
import { DataDirectoryBusyError } from './directory-lock.ts';

/** The settings a one-off command opens the server's database with (the entry point reads them from config.ts). */
export interface CommandDatabaseSettings {
  databaseUrl: string | undefined;
  databaseConnectionDefaults: ConnectionDefaults;
  databaseNamedStatements: boolean;
  dataDir: string;
  databaseTimeouts: DatabaseTimeouts;
}

/** Where a command's work runs while the server holds the embedded database. */
export interface WhileServerRuns {
  /** The command's name, e.g. "ledger:verify". */
  command: string;
  /** What to do through the running server, e.g. "run the same check". */
  instead: string;
  /** Where: the console page and the API call. */
  where: string;
}

/**
 * Opens the server's database for a one-off command (no statement timeouts: a command may read
 * everything). The embedded database is one process's: while `npm start` runs on the same
 * DATA_DIR the command cannot open it, so it says so and where the same work runs meanwhile,
 * instead of a stack trace, and exits 2.
 */
export async function openCommandDatabase(settings: CommandDatabaseSettings, elsewhere?: WhileServerRuns): Promise<DatabaseHandle> {
  const pgliteDir = path.join(settings.dataDir, 'db');
  try {
    return await openDatabase({
      databaseUrl: settings.databaseUrl,
      connectionDefaults: settings.databaseConnectionDefaults,
      namedStatements: settings.databaseNamedStatements,
      pgliteDir,
      timeouts: withoutStatementTimeouts(settings.databaseTimeouts),
    });
  } catch (error) {
    if (!elsewhere || !(error instanceof DataDirectoryBusyError)) throw error;
    console.error(
      [
        `${elsewhere.command} cannot open the embedded database in ${pgliteDir}: the running Kestrel server holds it.`,
        `Either stop the server and run this again, or ${elsewhere.instead} through the running server:`,
        `  ${elsewhere.where}`,
        `(${error.message})`,
      ].join('\n'),
    );
    process.exit(2);
  }
}
