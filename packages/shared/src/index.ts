export * from './constants.ts';
export * from './messages.ts';
export * from './money.ts';
export * from './card.ts';
export * from './dates.ts';
export * from './schemas/auth.ts';
export * from './schemas/transfers.ts';
export * from './schemas/accounts.ts';
