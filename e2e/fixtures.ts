import { expect, test as base, type APIRequestContext, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'kestrel-demo';
export const DEMO_TPIN = '4826';
export const demo = {
  alice: { email: 'alice@example.com', userName: 'alice' },
  bob: { email: 'bob@example.com', userName: 'bob', storeName: "Bob's Bikes Shop" },
} as const;

let counter = 0;
/** Unique data per test, so journeys never collide. */
export function uniqueId(prefix = 'e2e'): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${process.pid}${counter}`;
}

export function uniquePhone(): string {
  return `+1${String(Date.now()).slice(-7)}${String(process.pid).slice(-1)}${String(counter++ % 100).padStart(2, '0')}`;
}

/** The newest verification link mailed to an address, read from the development mailbox. */
export async function verificationLinkFor(request: APIRequestContext, email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const response = await request.get(`/dev/mailbox.json?to=${encodeURIComponent(email.toLowerCase())}`);
      const mails = (await response.json()).data as { to: string; text: string }[];
      link = mails.find((mail) => mail.to === email.toLowerCase())?.text.match(/https?:\/\/\S+\/verify-email\?token=[\w-]+/)?.[0];
      return link;
    })
    .toBeTruthy();
  return link!;
}

/** Signs up through the API (the sign-up page has its own journey) and answers the credentials. */
export async function registerViaApi(request: APIRequestContext, options: { verify?: boolean } = {}) {
  const id = uniqueId();
  const user = { firstName: 'Erin', lastName: `Tester${id.slice(-4)}`, email: `${id}@example.test`, contactNumber: uniquePhone(), password: 'e2e-password-123' };
  const response = await request.post('/v1/user/register', { data: user });
  expect(response.status(), await response.text()).toBe(201);
  const { _id, token } = (await response.json()).data as { _id: string; token: string };
  if (options.verify !== false) {
    const link = await verificationLinkFor(request, user.email);
    const tokenParam = new URL(link).searchParams.get('token');
    expect((await request.post('/v1/user/verify-email', { data: { token: tokenParam } })).status()).toBe(200);
  }
  return { ...user, userId: _id, token };
}

export async function loginThroughForm(page: Page, email: string, password: string, landsOn: RegExp = /\/dashboard$/): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(landsOn);
}

/** Saves a full-page screenshot under e2e/screenshots for people to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const project = test.info().project.name;
  await page.screenshot({ path: `screenshots/${name}-${project}.png`, fullPage: true });
}

export const test = base;
export { expect };
