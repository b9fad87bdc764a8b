import { asCents, createAccountBody, formatMoney, negateCents, type Cents, type CreateAccountInput } from '@kestrel/shared';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { hashSecret } from '../../security/passwords.ts';
import { openAccount, setStepUpThreshold } from '../accounts/accounts.service.ts';
import { tpinMac } from '../accounts/tpin.ts';
import { postTransaction, SYSTEM_ACCOUNTS, walletBalancesByAccountNumber } from '../ledger/ledger.service.ts';
import { hasNonOperatorUsers, insertUser } from '../users/users.service.ts';

/** The demo logins, fixed so people and scripts can rely on them (README, issue 3). */
export const DEMO_PASSWORD = 'kestrel-demo';
export const DEMO_TPIN = '4826';

interface DemoHolder {
  firstName: string;
  lastName: string;
  email: string;
  contactNumber: string;
  openingBalanceCents: Cents;
  account: Omit<CreateAccountInput, 'users' | 'balance' | 'gatewayFee' | 'paymentRequestFee'>;
}

/** The demo account whose float funds the browser journeys' holders (e2e/wallet.ts, fundFromDemo). */
const DEMO_FLOAT_USER_NAME = 'bob';

export const DEMO_HOLDERS: readonly DemoHolder[] = [
  {
    firstName: 'Alice',
    lastName: 'Carter',
    email: 'alice@example.com',
    contactNumber: '+15550100001',
    openingBalanceCents: asCents(500000),
    account: {
      accountType: 'personal',
      accountHolderName: 'Alice Carter',
      userName: 'alice',
      accountEmail: 'alice@example.com',
      accountPhone: '+15550100001',
      identity: { type: 'passport', number: 'DEMO-P-0001' },
      dateOfBirth: '1990-04-12',
      address: { street: '12 Harbor Lane', city: 'Portland', state: 'OR', zipCode: '97201', country: 'US' },
      notificationPreference: 'email',
      occupation: 'Product designer',
      annualIncome: '85000',
    },
  },
  {
    firstName: 'Bob',
    lastName: 'Nguyen',
    email: 'bob@example.com',
    contactNumber: '+15550100002',
    openingBalanceCents: asCents(250000),
    account: {
      accountType: 'business',
      accountHolderName: 'Bob Nguyen',
      businessName: "Bob's Bikes",
      companyName: "Bob's Bikes LLC",
      userName: 'bob',
      accountEmail: 'bob@example.com',
      accountPhone: '+15550100002',
      identity: { type: 'tradeLicense', number: 'DEMO-TL-0002' },
      dateOfBirth: '1985-09-30',
      address: { street: '400 Spoke Street', city: 'Austin', state: 'TX', zipCode: '73301', country: 'US' },
      notificationPreference: 'sms',
      occupation: 'Shop owner',
      annualIncome: '120000',
    },
  },
];

export interface DemoLogin {
  email: string;
  password: string;
  tpin: string;
  accountNumber: string;
  userName: string;
  balance: string;
}

/**
 * Fills an EMPTY database (no users but operators) with the demo data set: two verified users, each
 * with one account funded through a ledger transaction from the funding system account.
 * Answers the logins, or null when the database already had users (so it is safe on every start).
 */
export async function seedDemo(db: Db, secretKey?: string): Promise<DemoLogin[] | null> {
  if (await hasNonOperatorUsers(db)) return null;
  // argon2 is slow on purpose; hash before the transaction.
  const passwordHash = await hashSecret(DEMO_PASSWORD);
  // With the server's secret the TPINs are stored as the product stores them (the keyed hash
  // over the user name); without it (a seeder that has none) as argon2, upgraded on first use.
  let tpinHashFor: (userName: string) => string;
  if (secretKey === undefined) {
    const argon2Tpin = await hashSecret(DEMO_TPIN);
    tpinHashFor = () => argon2Tpin;
  } else {
    tpinHashFor = (userName) => tpinMac(secretKey, userName, DEMO_TPIN);
  }

  return inTransaction(db, async (trx) => {
    // One seeder at a time; a second one then sees the users and stops.
    await sql`SELECT pg_advisory_xact_lock(727275)`.execute(trx);
    if (await hasNonOperatorUsers(trx)) return null;
    const logins: DemoLogin[] = [];
    for (const holder of DEMO_HOLDERS) {
      const userId = await insertUser(trx, {
        firstName: holder.firstName,
        lastName: holder.lastName,
        email: holder.email,
        contactNumber: holder.contactNumber,
        passwordHash,
        isEmailVerified: true,
      });
      const body = createAccountBody.parse({ ...holder.account, users: [{ userId, tpin: DEMO_TPIN }], balance: [{ currency: 'USD' }] });
      const account = await openAccount(trx, { ownerUserId: userId, body, tpinHashFor: () => tpinHashFor(body.userName) });
      if (holder.account.userName === DEMO_FLOAT_USER_NAME) {
        // Demo bob funds every browser journey's new holders (US$ 40.00 each, many a day): his
        // account moves without step-up (README, Step-up for large movements); alice and the
        // others keep the default threshold, to try it with.
        await setStepUpThreshold(trx, account._id, 100_000_000_000);
      }
      await postTransaction(trx, {
        kind: 'funding',
        transactionFor: 'Demo opening balance',
        currency: 'USD',
        amountCents: holder.openingBalanceCents,
        postings: [
          { party: { system: SYSTEM_ACCOUNTS.funding }, amountCents: negateCents(holder.openingBalanceCents) },
          { party: { walletAccountId: account._id }, amountCents: holder.openingBalanceCents },
        ],
      });
      logins.push({
        email: holder.email,
        password: DEMO_PASSWORD,
        tpin: DEMO_TPIN,
        accountNumber: account.accountNumber,
        userName: account.userName,
        balance: formatMoney(holder.openingBalanceCents, 'USD'),
      });
    }
    return logins;
  });
}

/**
 * The demo logins with the balances their accounts hold now: the store's demo card payments
 * (seeded after the accounts) have already paid bob, so the start-up banner shows what a
 * person will see on signing in, not the opening balance.
 */
export async function withCurrentBalances(db: Db, logins: DemoLogin[]): Promise<DemoLogin[]> {
  const rows = await walletBalancesByAccountNumber(
    db,
    'USD',
    logins.map((login) => login.accountNumber),
  );
  const byNumber = new Map(rows.map((row) => [row.accountNumber, row.balanceCents]));
  return logins.map((login) => {
    const cents = byNumber.get(login.accountNumber);
    return cents === undefined ? login : { ...login, balance: formatMoney(asCents(Number(cents)), 'USD') };
  });
}
