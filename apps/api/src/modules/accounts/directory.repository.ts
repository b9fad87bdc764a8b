import type { Db } from '../../db/database.ts';

/*
 * The account directory a sender searches for a recipient (modules/transfers/recipients.service.ts).
 * The caller decides what is shown of each row and masks the holder's name.
 */

export interface DirectoryQuery {
  /** The trimmed query, matched exactly against the account number. */
  query: string;
  /** Lower-cased, matched exactly against the e-mail and user name. */
  lower: string;
  /** Without spaces and dashes, matched exactly against the phone. */
  phone: string;
  /** A LIKE pattern (its wildcards escaped) matched against the holder's and business names. */
  byName: string;
  excludeAccountNumber?: string | undefined;
  limit: number;
}

/** Accounts matching the query, exact matches first, then by holder name and number. */
export function searchAccountDirectory(db: Db, { query, lower, phone, byName, excludeAccountNumber, limit }: DirectoryQuery) {
  let search = db
    .selectFrom('accounts')
    .select(['id', 'accountNumber', 'accountType', 'accountHolderName', 'businessName', 'userName', 'accountEmail', 'accountPhone'])
    .select((eb) =>
      eb
        .or([
          eb('accountNumber', '=', query),
          eb(eb.fn('lower', ['accountEmail']), '=', lower),
          eb('accountPhone', '=', phone),
          eb(eb.fn('lower', ['userName']), '=', lower),
        ])
        .as('exact'),
    )
    .where((eb) =>
      eb.or([
        eb('accountNumber', '=', query),
        eb(eb.fn('lower', ['accountEmail']), '=', lower),
        eb('accountPhone', '=', phone),
        eb(eb.fn('lower', ['userName']), '=', lower),
        eb(eb.fn('lower', ['accountHolderName']), 'like', byName),
        eb(eb.fn('lower', ['businessName']), 'like', byName),
      ]),
    );
  if (excludeAccountNumber) search = search.where('accountNumber', '<>', excludeAccountNumber);
  return (
    search
      // An exact account number, e-mail, phone or user name is what the sender meant: never cut off by the limit.
      .orderBy('exact', 'desc')
      .orderBy('accountHolderName')
      .orderBy('accountNumber')
      .limit(limit)
      .execute()
  );
}

/** The account with exactly this user name, case-insensitively (any holder). */
export function findAccountByUserName(db: Db, userName: string) {
  return db
    .selectFrom('accounts')
    .select(['id', 'accountNumber', 'accountType', 'accountHolderName', 'businessName', 'userName'])
    .where((eb) => eb(eb.fn('lower', ['userName']), '=', userName.trim().toLowerCase()))
    .executeTakeFirst();
}
