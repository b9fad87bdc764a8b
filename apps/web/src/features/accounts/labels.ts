import type { IdentityType, NotificationPreference } from './api.ts';

/** Human names of the spec's identity types (the API keeps the codes). */
export const identityTypeLabels: Record<IdentityType, string> = {
  nid: 'National ID card',
  passport: 'Passport',
  drivingLicense: 'Driving licence',
  tradeLicense: 'Trade licence',
};

export const notificationPreferenceLabels: Record<NotificationPreference, string> = {
  email: 'Email',
  sms: 'SMS',
};
