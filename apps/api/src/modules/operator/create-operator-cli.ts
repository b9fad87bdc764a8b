/**
 * Creates an operator, or makes an existing user one. Operators may see every account's
 * identity documents (GET /v1/account/{accountId}/identity-images/{imageId}).
 *
 *   npm run operator:create -- --email ops@example.com --password 'a long secret'
 *   npm run operator:create -- --email existing.user@example.com          (promotes; password unchanged)
 *
 * Optional: --first-name, --last-name, --phone. Uses the same settings as the server
 * (DATABASE_URL, or the embedded database in DATA_DIR — stop the server first for that one,
 * since the embedded database takes one process at a time).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../config.ts';
import { openDatabase } from '../../db/database.ts';
import { migrate } from '../../db/migrate.ts';
import { ensureOperator } from './operator.service.ts';

const usage = "Usage: npm run operator:create -- --email <address> [--password <at least 8 characters>] [--first-name <name>] [--last-name <name>] [--phone <number>]";

let args;
try {
  args = parseArgs({
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      phone: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
  process.exit(2);
}
if (args.help || !args.email) {
  console.error(usage);
  process.exit(args.help ? 0 : 2);
}

const config = loadConfig();
const handle = await openDatabase({ databaseUrl: config.databaseUrl, connectionDefaults: config.databaseConnectionDefaults, namedStatements: config.databaseNamedStatements, pgliteDir: path.join(config.dataDir, 'db') });
try {
  await migrate(handle.db);
  const { outcome, userId } = await ensureOperator(handle.db, {
    email: args.email,
    password: args.password,
    firstName: args['first-name'],
    lastName: args['last-name'],
    phone: args.phone,
  });
  const email = args.email.trim().toLowerCase();
  const said = {
    created: `Created operator ${email} (user ${userId}), e-mail verified; sign in with the password given.`,
    promoted: `Marked existing user ${email} (user ${userId}) as an operator; their password is unchanged.`,
    already_operator: `${email} (user ${userId}) is already an operator; nothing changed.`,
  }[outcome];
  console.log(said);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
} finally {
  await handle.close();
}
