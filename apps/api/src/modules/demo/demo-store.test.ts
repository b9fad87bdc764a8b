import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshDatabase, testConfig } from '../../../test/harness.ts';
import { buildApp } from '../../app.ts';
import { seedDemo } from '../demo/seed-demo.ts';
import { walletBalances } from '../ledger/ledger.service.ts';
import { verifyLedger } from '../ledger/verify.ts';
import { seedDemoStore } from './demo-store.ts';

// A fresh in-memory database of its own: the demo data only goes into an empty one.
const handle = freshDatabase();

describe("the demo store (Bob's Bikes Shop)", () => {
  it('is Approved, calls back to the development listener and has paid, failed and open payments made through the gateway', async () => {
    const config = testConfig({ publicUrl: 'http://localhost:3000' });
    const app = await buildApp({ config, db: handle.db, logger: false, webDist: path.join(config.dataDir, 'no-web') });
    await seedDemo(handle.db);
    const demo = await seedDemoStore(app.ctx);
    expect(demo).toMatchObject({ storeName: "Bob's Bikes Shop", storeId: expect.stringMatching(/^[0-9a-f]{32}$/) });

    const store = await handle.db.selectFrom('stores').selectAll().where('storeId', '=', demo!.storeId).executeTakeFirstOrThrow();
    expect(store).toMatchObject({ status: 'Approved', callbackUrl: 'http://localhost:3000/dev/store-callbacks' });
    const payments = await handle.db.selectFrom('payments').select(['orderId', 'paymentStatus', 'feeCents']).where('storeId', '=', store.id).orderBy('orderId').execute();
    expect(payments).toEqual([
      { orderId: 'BB-1001', paymentStatus: 'success', feeCents: 178 },
      { orderId: 'BB-1002', paymentStatus: 'success', feeCents: 25 },
      { orderId: 'BB-1003', paymentStatus: 'initiate', feeCents: null },
      { orderId: 'BB-1004', paymentStatus: 'initiate', feeCents: null },
    ]);
    const errors = await handle.db.selectFrom('paymentErrors').select('errorMessage').orderBy('id').execute();
    expect(errors.map((row) => row.errorMessage)).toEqual(['Your card was declined.', 'Your card has insufficient funds.']);
    // 2,500.00 opening + (89.00 - 1.78) + (12.50 - 0.25)
    expect(await walletBalances(handle.db, store.accountId)).toEqual([{ currency: 'USD', amountCents: 259947 }]);
    expect((await verifyLedger(handle.db)).problems).toEqual([]);
    await app.close();
  });
});
