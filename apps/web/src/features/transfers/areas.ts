/**
 * The spec's transfer types, the `{area}` of /fund-transfer/{area}/... Only wallet-to-wallet
 * moves money today; bank and mobile-bank transfers are 'Comming Soon!'.
 */
export const TRANSFER_AREAS = ['wallet', 'bank', 'mobile-bank'] as const;
export type TransferArea = (typeof TRANSFER_AREAS)[number];

export const WALLET_AREA = 'wallet' satisfies TransferArea;

export function isTransferArea(value: string | undefined): value is TransferArea {
  return (TRANSFER_AREAS as readonly string[]).includes(value ?? '');
}

export const transferPaths = {
  home: '/fund-transfer',
  recipientSearch: (area: TransferArea) => `/fund-transfer/${area}/recipient`,
  transferForm: (area: TransferArea, recipientUserName: string) => `/fund-transfer/${area}/recipient/${encodeURIComponent(recipientUserName)}`,
};
