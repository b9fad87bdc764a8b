import { randomInt } from 'node:crypto';
import { messages, RECIPIENT_LOOKUPS_PER_DAY, transferMessages } from '@kestrel/shared';
import { describe, expect, it } from 'vitest';
import { api } from '../../../test/harness.ts';
import { createAccount, createUser } from '../../../test/factories.ts';
import { maskHolderName } from './recipients.service.ts';

/** A made-up word no other test's holder names contain. */
function rareWord(): string {
  return Array.from({ length: 9 }, (_, i) => String.fromCharCode((i === 0 ? 65 : 97) + randomInt(0, 26))).join('');
}

async function holderNamed(accountHolderName: string) {
  const user = await createUser();
  const account = await createAccount(user, { accountHolderName });
  return { user, account };
}

const search = (token: string, query: string) => api('GET', `/v1/account/search?query=${encodeURIComponent(query)}`, { token });

describe('issue 19 item 8: recipient search names no one until the sender picks', () => {
  it('masks the holder behind an e-mail, a phone, an account number or a name part ("Alice C."), and the pick shows the full name', async () => {
    const sender = await holderNamed(`${rareWord()} Sender`);
    const given = rareWord();
    const family = rareWord();
    const target = await holderNamed(`${given} ${family}`);
    const profile = (await api('GET', `/v1/account/${target.account.accountNumber}`, { token: target.user.token })).body.data;

    for (const query of [profile.accountEmail, profile.accountPhone, profile.accountNumber, given.slice(0, 5), family.slice(0, 3)]) {
      const response = await search(sender.user.token, query);
      expect(response.status, query).toBe(200);
      const found = (response.body.data as { userName: string; accountHolderName: string }[]).find((r) => r.userName === target.account.userName);
      expect(found?.accountHolderName, query).toBe(`${given} ${family.charAt(0)}.`);
      // The family name appears nowhere in the answer.
      expect(JSON.stringify(response.body).toLowerCase().includes(family.toLowerCase()), query).toBe(false);
    }

    // Picking the recipient (the Complete Transfer page's look-up) shows the name in full, as the spec's form does.
    const picked = await api('GET', `/v1/recipients/${target.account.userName}`, { token: sender.user.token });
    expect(picked.status).toBe(200);
    expect(picked.body.data.accountHolderName).toBe(`${given} ${family}`);
  });

  it('matches nothing with fewer than 3 characters', async () => {
    const sender = await holderNamed(`${rareWord()} Sender`);
    const word = rareWord();
    const target = await holderNamed(`${word} Short`);
    for (const query of [word.slice(0, 1), word.slice(0, 2), ` ${word.slice(0, 2)} `]) {
      const response = await search(sender.user.token, query);
      expect({ query, status: response.status, data: response.body.data }).toEqual({ query, status: 200, data: [] });
    }
    const three = await search(sender.user.token, word.slice(0, 3));
    expect((three.body.data as { userName: string }[]).map((r) => r.userName)).toContain(target.account.userName);
  });

  it(`caps searches and look-ups at ${RECIPIENT_LOOKUPS_PER_DAY} per user a day, with a readable 429`, async () => {
    const searcher = await holderNamed(`${rareWord()} Searcher`);
    const target = await holderNamed(`${rareWord()} Target`);
    const other = await holderNamed(`${rareWord()} Other`);
    // Too-short queries are free: they match nothing and use no budget.
    for (let i = 0; i < 5; i += 1) expect((await search(searcher.user.token, 'ab')).status).toBe(200);
    for (let i = 0; i < RECIPIENT_LOOKUPS_PER_DAY - 1; i += 1) {
      const response = await search(searcher.user.token, target.account.accountNumber);
      if (response.status !== 200) throw new Error(`search ${i + 1} answered ${response.status}`);
    }
    expect((await api('GET', `/v1/recipients/${target.account.userName}`, { token: searcher.user.token })).status).toBe(200);

    const expected = { status: 'error', error: transferMessages.searchDailyCap, code: 'search_daily_cap' };
    const over = await search(searcher.user.token, target.account.accountNumber);
    expect({ status: over.status, body: over.body }).toEqual({ status: 429, body: expected });
    const lookup = await api('GET', `/v1/recipients/${target.account.userName}`, { token: searcher.user.token });
    expect({ status: lookup.status, body: lookup.body }).toEqual({ status: 429, body: expected });

    // Another user's budget is their own.
    expect((await search(other.user.token, target.account.accountNumber)).status).toBe(200);
    expect(messages.generic.tooManyRequests).not.toBe(transferMessages.searchDailyCap);
  });

  it('masks names to the first word and the initial of the last', () => {
    expect(maskHolderName('Alice Cooper')).toBe('Alice C.');
    expect(maskHolderName('  mary  jane  watson ')).toBe('mary W.');
    expect(maskHolderName('Cher')).toBe('Cher');
  });
});
