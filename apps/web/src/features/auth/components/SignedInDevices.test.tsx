import { screen, waitFor, within } from '@testing-library/react';
import { sessionMessages } from '@kestrel/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderPage, signIn, stubApi, success, writes } from '../../../test/render.tsx';
import { SignedInDevices } from './SignedInDevices.tsx';

const laptop = { _id: 's-laptop', device: 'Chrome 142 on Linux', ip: '203.0.113.7', signedInAt: '2026-11-25T09:00:00.000Z', lastSeenAt: '2026-11-25T10:40:00.000Z', current: true };
const phone = { _id: 's-phone', device: 'Safari 18 on iOS', ip: '198.51.100.4', signedInAt: '2026-11-20T08:00:00.000Z', lastSeenAt: '2026-11-24T21:15:00.000Z', current: false };

describe('My Account → Security: signed-in devices', () => {
  beforeEach(signIn);

  it('lists each device with its address and times, marks this one, and signs another out, then reads the list again', async () => {
    let list = [laptop, phone];
    const calls = stubApi({
      'GET /v1/auth/sessions': () => success(list),
      'DELETE /v1/auth/sessions/s-phone': () => {
        list = [laptop];
        return success(null, sessionMessages.signedOut);
      },
    });
    const { user } = renderPage(<SignedInDevices />);
    const devices = await screen.findByRole('list', { name: 'Signed-in devices' });
    const rows = within(devices).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^Chrome 142 on LinuxThis device203\.0\.113\.7 · Signed in November 25th, 2026 .* · Last seen November 25th, 2026 /),
      expect.stringMatching(/^Safari 18 on iOS198\.51\.100\.4 · Signed in November 20th, 2026 .*Sign out$/),
    ]);
    // No sign-out for the device in use (Logout ends it).
    expect(within(rows[0]!).queryByRole('button')).toBeNull();

    await user.click(within(rows[1]!).getByRole('button', { name: 'Sign out: Safari 18 on iOS, 198.51.100.4' }));
    expect(await screen.findByText(sessionMessages.signedOut)).toBeTruthy();
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Signed-in devices' })).getAllByRole('listitem')).toHaveLength(1));
    expect(screen.getByText('No other device is signed in.')).toBeTruthy();
    expect(writes(calls)).toEqual([['DELETE', '/v1/auth/sessions/s-phone', undefined]]);
  });

  it('signs out everywhere else with one call', async () => {
    let list = [laptop, phone, { ...phone, _id: 's-tablet', device: 'Firefox 140 on Android' }];
    const calls = stubApi({
      'GET /v1/auth/sessions': () => success(list),
      'POST /v1/auth/sessions/sign-out-others': () => {
        list = [laptop];
        return success({ signedOut: 2 }, sessionMessages.signedOutOthers);
      },
    });
    const { user } = renderPage(<SignedInDevices />);
    await user.click(await screen.findByRole('button', { name: 'Sign out everywhere else' }));
    expect(await screen.findByText(sessionMessages.signedOutOthers)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Sign out everywhere else' })).toBeNull());
    expect(writes(calls)).toEqual([['POST', '/v1/auth/sessions/sign-out-others', undefined]]);
  });

  it('says so when the list cannot be read', async () => {
    stubApi({ 'GET /v1/auth/sessions': { status: 503, body: { status: 'error', code: 'database_unavailable', error: 'The service is briefly unavailable.' } } });
    renderPage(<SignedInDevices />);
    expect((await screen.findByRole('alert')).textContent).toBe('The service is briefly unavailable.');
  });
});
