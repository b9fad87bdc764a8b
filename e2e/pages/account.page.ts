import { accountFieldLabels as labels, messages, uiText } from '@kestrel/shared';
import { expect, type Locator, type Page } from '@playwright/test';

/** A tiny but real PNG (1×1 pixel, a different colour per call) so uploads pass the server's content check. */
export function pngImage(name: string, seed: number): { name: string; mimeType: string; buffer: Buffer } {
  // 1×1 RGB PNG; the IDAT holds one filtered scanline (0, r, g, b), zlib-compressed, and its CRC.
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = (crcTable[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const checksum = Buffer.alloc(4);
    checksum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, checksum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type RGB
  const scanline = Buffer.from([0, (seed * 67) % 256, (seed * 131) % 256, (seed * 29) % 256]);
  // zlib stream with one stored (uncompressed) block, then the Adler-32 of the data.
  let a = 1;
  let b = 0;
  for (const byte of scanline) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(((b << 16) | a) >>> 0);
  const zlib = Buffer.concat([Buffer.from([0x78, 0x01, 0x01, scanline.length, 0x00, ~scanline.length & 0xff, 0xff]), scanline, adler]);
  const buffer = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return { name, mimeType: 'image/png', buffer };
}

export interface AccountFormData {
  type: 'personal' | 'business';
  businessName?: string;
  companyName?: string;
  holderName: string;
  email: string;
  phone: string;
  userName: string;
  dateOfBirth: string;
  country: string;
  city: string;
  state: string;
  street: string;
  zipCode: string;
  notification: 'Email' | 'SMS';
  occupation: string;
  annualIncome: string;
  identityType: string;
  identityNumber: string;
  tpin: string;
}

/** 'Complete Your ... Account' (portal gate and /new-account). */
export class CompleteAccountPage {
  readonly heading: Locator;
  readonly submit: Locator;
  readonly cancel: Locator;
  readonly images: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: /^Complete Your/, level: 1 });
    this.submit = page.getByRole('button', { name: uiText.completeAccount.submit, exact: true });
    this.cancel = page.getByRole('button', { name: uiText.completeAccount.cancel, exact: true });
    this.images = page.getByLabel(labels.identityImage, { exact: true });
  }

  field(label: string): Locator {
    return this.page.getByLabel(label, { exact: true });
  }

  type(type: 'personal' | 'business'): Locator {
    return this.page.getByRole('radio', { name: type === 'business' ? uiText.completeAccount.business : uiText.completeAccount.personal });
  }

  /** A message shown under a field (or the account type's). */
  error(message: string): Locator {
    return this.page.getByText(message, { exact: true });
  }

  async fill(data: AccountFormData): Promise<void> {
    await this.type(data.type).check();
    await expect(this.heading).toHaveText(uiText.completeAccount.title(data.type));
    if (data.type === 'business') {
      await this.field(labels.businessName).fill(data.businessName ?? '');
      await this.field(labels.companyName).fill(data.companyName ?? '');
    }
    await this.field(labels.accountHolderName).fill(data.holderName);
    await this.field(labels.accountEmail).fill(data.email);
    await this.field(labels.accountPhone).fill(data.phone);
    await this.field(labels.userName).fill(data.userName);
    await this.field(`${labels.dateOfBirth} (${uiText.completeAccount.dateOfBirthHint})`).fill(data.dateOfBirth);
    // The countries come from GET /data/v1/countries.
    await expect(this.field(labels.country).locator('option', { hasText: data.country }).first()).toBeAttached();
    await this.field(labels.country).selectOption({ label: data.country });
    await this.field(labels.city).fill(data.city);
    await this.field(labels.state).fill(data.state);
    await this.field(labels.street).fill(data.street);
    await this.field(labels.zipCode).fill(data.zipCode);
    await this.field(labels.currency).selectOption('USD');
    await this.field(labels.notificationPreference).selectOption({ label: data.notification });
    await this.field(labels.occupation).fill(data.occupation);
    await this.field(labels.annualIncome).fill(data.annualIncome);
    await this.field(labels.identityType).selectOption({ label: data.identityType });
    await this.field(labels.identityNumber).fill(data.identityNumber);
    await this.field('new TPIN').fill(data.tpin);
  }

  async attachImages(count = 2): Promise<void> {
    const files = Array.from({ length: count }, (_, index) => pngImage(`id-${index === 0 ? 'front' : 'back'}.png`, index + 1));
    await this.images.setInputFiles(files);
    await expect(this.page.getByRole('list', { name: 'Chosen images' }).getByRole('listitem')).toHaveCount(count);
  }

  successToast(): Locator {
    return this.page.getByText(messages.account.created, { exact: true });
  }
}

/** The shell's account switcher, header balance button and navigation, at any width. */
export class PortalChrome {
  readonly balanceButton: Locator;

  constructor(readonly page: Page) {
    this.balanceButton = page.getByRole('banner').getByRole('button', { name: /View Balance|\d\.\d{2} [A-Z]{3}/ });
  }

  private get phone(): boolean {
    return (this.page.viewportSize()?.width ?? 1280) < 1024;
  }

  /** The sidebar, or on a phone the navigation drawer (opened first). */
  async navigation(): Promise<Locator> {
    if (!this.phone) return this.page.getByRole('complementary', { name: 'Sidebar' });
    const drawer = this.page.getByRole('dialog', { name: 'Navigation' });
    if (!(await drawer.isVisible())) await this.page.getByRole('button', { name: 'Menu' }).click();
    await expect(drawer).toBeVisible();
    return drawer;
  }

  async account(name: string): Promise<Locator> {
    return (await this.navigation()).getByRole('button', { name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, `) });
  }

  async createNewAccount(): Promise<void> {
    await (await this.navigation()).getByRole('link', { name: uiText.portal.createNewAccount }).click();
    await expect(this.page).toHaveURL(/\/new-account$/);
  }

  async openMyAccount(): Promise<void> {
    await (await this.navigation()).getByRole('link', { name: uiText.nav.myAccount, exact: true }).click();
    await expect(this.page.getByRole('heading', { name: uiText.myAccount.title, level: 1 })).toBeVisible();
  }
}
